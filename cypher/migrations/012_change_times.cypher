// Graph schema version 12: what changed between two instants of either clock is read from
// indexes on the times a fact became current, stopped being current, was last refined, and
// began and stopped holding in the world, so its cost follows the changes in the window,
// not the size of the space.
CREATE INDEX fact_held_from IF NOT EXISTS FOR (f:Fact) ON (f.space, f.held_from);
CREATE INDEX fact_retired_at IF NOT EXISTS FOR (f:Fact) ON (f.space, f.retired_at);
CREATE INDEX fact_refined_at IF NOT EXISTS FOR (f:Fact) ON (f.space, f.refined_at);
CREATE INDEX fact_valid_from IF NOT EXISTS FOR (f:Fact) ON (f.space, f.valid_from);
CREATE INDEX fact_valid_to IF NOT EXISTS FOR (f:Fact) ON (f.space, f.valid_to);
