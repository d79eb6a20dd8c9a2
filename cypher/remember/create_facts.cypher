// New facts of one write, in one round trip.
UNWIND $rows AS row
CREATE (f:Fact)
SET f = row
RETURN count(f) AS created
