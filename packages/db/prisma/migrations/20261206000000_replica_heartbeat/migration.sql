-- How far a read replica is behind, measured by what it has replayed rather than by what it received:
-- each service that reads a replica bumps this row on the primary every probe and looks for its own bump on
-- the standby (read-replica.ts). The replay lag alone (receive position against replay position) reads 0
-- for ever once a standby stops receiving WAL: it has replayed all it received, and it received nothing since.
-- One row; `seq` orders the bumps of every writer, since updates of one row commit one after the other.
CREATE TABLE replica_heartbeat (
  id      integer        PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  seq     bigint         NOT NULL DEFAULT 0,
  beat_at timestamptz(3) NOT NULL DEFAULT now()
);
INSERT INTO replica_heartbeat (id) VALUES (1);
