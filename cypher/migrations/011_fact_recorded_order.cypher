// Graph schema version 11: a space's facts in recording order come from an index, so a page
// of a listing reads about as many facts as it shows, whatever the space's size.
CREATE INDEX fact_recorded IF NOT EXISTS FOR (f:Fact) ON (f.space, f.recorded_at);
