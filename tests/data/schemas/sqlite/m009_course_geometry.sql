BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'pace','m001_initial','2026-12-06 08:35:41.712832+00:00');
INSERT INTO "_sqlite_migrations" VALUES(2,'pace','m002_round_play_and_format','2026-12-06 08:35:41.912979+00:00');
INSERT INTO "_sqlite_migrations" VALUES(3,'pace','m003_access','2026-12-06 08:35:41.932708+00:00');
INSERT INTO "_sqlite_migrations" VALUES(4,'pace','m004_scoring_setup','2026-12-06 08:35:42.025183+00:00');
INSERT INTO "_sqlite_migrations" VALUES(5,'pace','m005_scorer_role','2026-12-06 08:35:42.082065+00:00');
INSERT INTO "_sqlite_migrations" VALUES(6,'pace','m006_round_scoring','2026-12-06 08:35:42.103852+00:00');
INSERT INTO "_sqlite_migrations" VALUES(7,'pace','m007_competitions','2026-12-06 08:35:42.156815+00:00');
INSERT INTO "_sqlite_migrations" VALUES(8,'pace','m008_tees','2026-12-06 08:35:42.229347+00:00');
INSERT INTO "_sqlite_migrations" VALUES(9,'pace','m009_course_geometry','2026-12-06 08:35:42.253522+00:00');
CREATE TABLE "access_codes" (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            round TEXT,
            role TEXT NOT NULL CHECK (role IN ('committee', 'referee', 'scorer', 'marshal', 'viewer')),
            prefix TEXT NOT NULL,
            hash TEXT NOT NULL,
            label TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE '____-__-__T__:__:__.______+00:00'),
            revoked_at TEXT
        );
INSERT INTO "access_codes" VALUES(1,NULL,'committee','AB','scrypt$a',NULL,'2025-06-01T08:00:00.000000+00:00',NULL);
INSERT INTO "access_codes" VALUES(2,'R1','marshal','CD','scrypt$b','hole 7','2025-06-01T08:00:00.000000+00:00',NULL);
CREATE TABLE app_secrets (
            name TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
INSERT INTO "app_secrets" VALUES('flask_secret_key','kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk');
CREATE TABLE competition_rounds (
            competition TEXT NOT NULL REFERENCES competitions(name) ON DELETE CASCADE,
            position INTEGER NOT NULL CHECK (position BETWEEN 1 AND 4),
            round TEXT NOT NULL REFERENCES rounds(name),
            PRIMARY KEY (competition, position),
            UNIQUE (competition, round)
        );
INSERT INTO "competition_rounds" VALUES('Club Championship',1,'R1');
INSERT INTO "competition_rounds" VALUES('Club Championship',2,'R2');
CREATE TABLE competitions (
            name TEXT PRIMARY KEY NOT NULL,
            scoring TEXT NOT NULL CHECK (scoring IN ('gross', 'net', 'points')),
            cut_after INTEGER CHECK (cut_after BETWEEN 1 AND 3),
            cut_top INTEGER CHECK (cut_top >= 1),
            cut_within INTEGER CHECK (cut_within >= 0),
            created_at TEXT NOT NULL CHECK (created_at LIKE '____-__-__T__:__:__.______+00:00'),
            CHECK ((cut_after IS NULL AND cut_top IS NULL AND cut_within IS NULL)
                   OR (cut_after IS NOT NULL AND (cut_top IS NULL) <> (cut_within IS NULL)))
        );
INSERT INTO "competitions" VALUES('Club Championship','gross',1,10,NULL,'2025-06-01T08:00:00.000000+00:00');
CREATE TABLE course_geometry (
            course TEXT PRIMARY KEY NOT NULL REFERENCES courses(name),
            data TEXT NOT NULL CHECK (json_valid(data)),
            imported_at TEXT NOT NULL
        );
INSERT INTO "course_geometry" VALUES('Les Bruyères','{"holes":[]}','2025-06-01T08:30:00.000000+00:00');
CREATE TABLE courses (
            name TEXT PRIMARY KEY NOT NULL,
            data TEXT NOT NULL CHECK (json_valid(data)),
            imported_at TEXT NOT NULL
        , slope REAL, rating REAL);
INSERT INTO "courses" VALUES('Les Bruyères','[{"allotted_s":{"2":720.0},"length_m":352.5,"number":1,"par":4,"stroke_index":5,"walk_s":0.0},{"allotted_s":{},"length_m":148.0,"number":2,"par":3,"stroke_index":17,"walk_s":0.0}]','2025-06-01T08:00:00.000000+00:00',129.0,71.3);
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
INSERT INTO "events" VALUES(3,'evt-3','score_recorded','R1','2025-06-01T06:20:00.000000+00:00','2025-06-01T08:30:00.000000+00:00','{"role":"scorer"}','{"group":"g1","hole":1,"player":"Anne Dupont","strokes":5}');
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
            club TEXT, class TEXT, match TEXT, tees TEXT, gender TEXT,
            PRIMARY KEY (round, group_id, position),
            FOREIGN KEY (round, group_id) REFERENCES groups(round, id) ON DELETE CASCADE
        );
INSERT INTO "players" VALUES('R1','g1',0,'Anne Dupont',12.4,NULL,'GCB','A',NULL,'yellow','F');
INSERT INTO "players" VALUES('R1','g1',1,'Jan Peeters',NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "players" VALUES('R1','g2',0,'Zoë Martin',3.0,NULL,'RGCL',NULL,NULL,NULL,NULL);
CREATE TABLE rounds (
            name TEXT PRIMARY KEY NOT NULL,
            course TEXT NOT NULL REFERENCES courses(name),
            day TEXT NOT NULL CHECK (day LIKE '____-__-__'),
            timezone TEXT NOT NULL,
            policy TEXT NOT NULL,
            standard_interval_s REAL CHECK (standard_interval_s > 0),
            created_at TEXT NOT NULL
        , play TEXT NOT NULL DEFAULT 'stroke_play' CHECK (play IN ('stroke_play', 'match_play')), format TEXT NOT NULL DEFAULT 'individual' CHECK (format IN ('individual', 'foursome', 'threesome', 'greensome', 'four_ball', 'best_ball')), scoring TEXT CHECK (scoring IN ('stroke', 'stableford', 'match', 'bogey', 'par')), net INTEGER NOT NULL DEFAULT 0 CHECK (net IN (0, 1)), allowance TEXT CHECK (allowance IS NULL OR json_valid(allowance)));
INSERT INTO "rounds" VALUES('R1','Les Bruyères','2025-06-01','Europe/Paris','frbg',600.0,'2025-06-01T08:00:00.000000+00:00','stroke_play','individual','stableford',1,'[95]');
INSERT INTO "rounds" VALUES('R2','Les Bruyères','2025-06-02','Europe/Brussels','frbg',NULL,'2025-06-01T08:00:00.000000+00:00','stroke_play','individual',NULL,0,NULL);
CREATE TABLE "sessions" (
            token_hash TEXT PRIMARY KEY NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('committee', 'referee', 'scorer', 'marshal', 'viewer')),
            round TEXT,
            code INTEGER REFERENCES "access_codes"(id),
            name TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE '____-__-__T__:__:__.______+00:00'),
            expires_at TEXT NOT NULL CHECK (expires_at LIKE '____-__-__T__:__:__.______+00:00'),
            revoked_at TEXT
        );
INSERT INTO "sessions" VALUES('t1','marshal','R1',2,'Ann','2025-06-01T08:00:00.000000+00:00','2025-06-01T08:30:00.000000+00:00',NULL);
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
CREATE INDEX access_codes_prefix ON access_codes(prefix);
CREATE INDEX competition_rounds_round ON competition_rounds(round);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('events',3);
INSERT INTO "sqlite_sequence" VALUES('access_codes',2);
COMMIT;
