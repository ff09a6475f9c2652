BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'pace','m001_initial','2026-12-06 08:35:34.729174+00:00');
CREATE TABLE courses (
            name TEXT PRIMARY KEY NOT NULL,
            data TEXT NOT NULL CHECK (json_valid(data)),
            imported_at TEXT NOT NULL
        );
INSERT INTO "courses" VALUES('Les Bruyères','[{"allotted_s":{"2":720.0},"length_m":352.5,"number":1,"par":4,"stroke_index":5,"walk_s":0.0},{"allotted_s":{},"length_m":148.0,"number":2,"par":3,"stroke_index":17,"walk_s":0.0}]','2025-06-01T08:00:00.000000+00:00');
CREATE TABLE events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            round TEXT NOT NULL REFERENCES rounds(name),
            at TEXT NOT NULL CHECK (at LIKE '____-__-__T__:__:__.______+00:00'),
            recorded_at TEXT NOT NULL CHECK (recorded_at LIKE '____-__-__T__:__:__.______+00:00'),
            by TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(by)),
            payload TEXT NOT NULL CHECK (json_valid(payload))
        );
INSERT INTO "events" VALUES(1,'evt-1','hole_completed','R1','2025-06-01T06:11:00.000000+00:00','2025-06-01T08:30:00.000000+00:00','{"device":"phone-1","role":"marshal"}','{"group":"g1","hole":1}');
INSERT INTO "events" VALUES(2,'evt-2','hole_completed','R1','2025-06-01T06:12:00.000000+00:00','2025-06-01T08:30:00.000000+00:00','{"device":"phone-1","role":"marshal"}','{"group":"g1","hole":2}');
CREATE TABLE groups (
            round TEXT NOT NULL REFERENCES rounds(name) ON DELETE CASCADE,
            id TEXT NOT NULL,
            position INTEGER NOT NULL,
            start TEXT NOT NULL CHECK (start LIKE '____-__-__T__:__:__.______+00:00'),
            tee INTEGER NOT NULL,
            PRIMARY KEY (round, id),
            UNIQUE (round, position)
        );
INSERT INTO "groups" VALUES('R1','g1',0,'2025-06-01T06:00:00.000000+00:00',1);
INSERT INTO "groups" VALUES('R1','g2',1,'2025-06-01T06:10:00.000000+00:00',1);
CREATE TABLE players (
            round TEXT NOT NULL,
            group_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            handicap REAL,
            side TEXT,
            club TEXT,
            PRIMARY KEY (round, group_id, position),
            FOREIGN KEY (round, group_id) REFERENCES groups(round, id) ON DELETE CASCADE
        );
INSERT INTO "players" VALUES('R1','g1',0,'Anne Dupont',12.4,NULL,'GCB');
INSERT INTO "players" VALUES('R1','g1',1,'Jan Peeters',NULL,NULL,NULL);
INSERT INTO "players" VALUES('R1','g2',0,'Zoë Martin',3.0,NULL,'RGCL');
CREATE TABLE rounds (
            name TEXT PRIMARY KEY NOT NULL,
            course TEXT NOT NULL REFERENCES courses(name),
            day TEXT NOT NULL CHECK (day LIKE '____-__-__'),
            timezone TEXT NOT NULL,
            policy TEXT NOT NULL,
            standard_interval_s REAL CHECK (standard_interval_s > 0),
            created_at TEXT NOT NULL
        );
INSERT INTO "rounds" VALUES('R1','Les Bruyères','2025-06-01','Europe/Paris','frbg',600.0,'2025-06-01T08:00:00.000000+00:00');
INSERT INTO "rounds" VALUES('R2','Les Bruyères','2025-06-02','Europe/Brussels','frbg',NULL,'2025-06-01T08:00:00.000000+00:00');
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE INDEX rounds_course ON rounds(course);
CREATE INDEX events_round_seq ON events(round, seq);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN
            SELECT RAISE(ABORT, 'events are append-only: UPDATE refused');
        END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN
            SELECT RAISE(ABORT, 'events are append-only: DELETE refused');
        END;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('events',2);
COMMIT;
