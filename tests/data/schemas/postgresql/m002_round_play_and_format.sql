--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: pace_events_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.pace_events_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
        BEGIN
            RAISE EXCEPTION 'events are append-only: % refused', TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
        END
        $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: courses; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.courses (
    name text NOT NULL,
    data text NOT NULL,
    imported_at text NOT NULL,
    CONSTRAINT courses_data_check CHECK (((data)::jsonb IS NOT NULL))
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    seq bigint NOT NULL,
    id text NOT NULL,
    type text NOT NULL,
    round text NOT NULL,
    at text NOT NULL,
    recorded_at text NOT NULL,
    by text DEFAULT '{}'::text NOT NULL,
    payload text NOT NULL,
    CONSTRAINT events_at_check CHECK ((at ~~ '____-__-__T__:__:__.______+00:00'::text)),
    CONSTRAINT events_by_check CHECK (((by)::jsonb IS NOT NULL)),
    CONSTRAINT events_payload_check CHECK (((payload)::jsonb IS NOT NULL)),
    CONSTRAINT events_recorded_at_check CHECK ((recorded_at ~~ '____-__-__T__:__:__.______+00:00'::text))
);


--
-- Name: events_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: groups; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.groups (
    round text NOT NULL,
    id text NOT NULL,
    "position" integer NOT NULL,
    start text NOT NULL,
    tee integer NOT NULL,
    CONSTRAINT groups_start_check CHECK ((start ~~ '____-__-__T__:__:__.______+00:00'::text))
);


--
-- Name: pace_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pace_migrations (
    name text NOT NULL,
    applied_at text NOT NULL
);


--
-- Name: players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.players (
    round text NOT NULL,
    group_id text NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    handicap double precision,
    side text,
    club text
);


--
-- Name: rounds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rounds (
    name text NOT NULL,
    course text NOT NULL,
    day text NOT NULL,
    timezone text NOT NULL,
    policy text NOT NULL,
    standard_interval_s double precision,
    created_at text NOT NULL,
    play text DEFAULT 'stroke_play'::text NOT NULL,
    format text DEFAULT 'individual'::text NOT NULL,
    CONSTRAINT rounds_day_check CHECK ((day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'::text)),
    CONSTRAINT rounds_format_check CHECK ((format = ANY (ARRAY['individual'::text, 'foursome'::text, 'threesome'::text, 'greensome'::text, 'four_ball'::text, 'best_ball'::text]))),
    CONSTRAINT rounds_play_check CHECK ((play = ANY (ARRAY['stroke_play'::text, 'match_play'::text]))),
    CONSTRAINT rounds_standard_interval_s_check CHECK ((standard_interval_s > (0)::double precision))
);


--
-- Data for Name: courses; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.courses VALUES ('Les Bruyères', '[{"allotted_s":{"2":720.0},"length_m":352.5,"number":1,"par":4,"stroke_index":5,"walk_s":0.0},{"allotted_s":{},"length_m":148.0,"number":2,"par":3,"stroke_index":17,"walk_s":0.0}]', '2025-06-01T08:00:00.000000+00:00');


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (1, 'evt-1', 'hole_completed', 'R1', '2025-06-01T06:11:00.000000+00:00', '2025-06-01T08:30:00.000000+00:00', '{"device":"phone-1","role":"marshal"}', '{"group":"g1","hole":1}');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (2, 'evt-2', 'hole_completed', 'R1', '2025-06-01T06:12:00.000000+00:00', '2025-06-01T08:30:00.000000+00:00', '{"device":"phone-1","role":"marshal"}', '{"group":"g1","hole":2}');


--
-- Data for Name: groups; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.groups VALUES ('R1', 'g1', 0, '2025-06-01T06:00:00.000000+00:00', 1);
INSERT INTO public.groups VALUES ('R1', 'g2', 1, '2025-06-01T06:10:00.000000+00:00', 1);


--
-- Data for Name: pace_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.pace_migrations VALUES ('m001_initial', '2026-12-06T08:35:35.940289+00:00');
INSERT INTO public.pace_migrations VALUES ('m002_round_play_and_format', '2026-12-06T08:35:35.945258+00:00');


--
-- Data for Name: players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.players VALUES ('R1', 'g1', 0, 'Anne Dupont', 12.4, NULL, 'GCB');
INSERT INTO public.players VALUES ('R1', 'g1', 1, 'Jan Peeters', NULL, NULL, NULL);
INSERT INTO public.players VALUES ('R1', 'g2', 0, 'Zoë Martin', 3, NULL, 'RGCL');


--
-- Data for Name: rounds; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.rounds VALUES ('R1', 'Les Bruyères', '2025-06-01', 'Europe/Paris', 'frbg', 600, '2025-06-01T08:00:00.000000+00:00', 'stroke_play', 'individual');
INSERT INTO public.rounds VALUES ('R2', 'Les Bruyères', '2025-06-02', 'Europe/Brussels', 'frbg', NULL, '2025-06-01T08:00:00.000000+00:00', 'stroke_play', 'individual');


--
-- Name: events_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.events_seq_seq', 2, true);


--
-- Name: courses courses_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.courses
    ADD CONSTRAINT courses_pkey PRIMARY KEY (name);


--
-- Name: events events_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_id_key UNIQUE (id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (seq);


--
-- Name: groups groups_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_pkey PRIMARY KEY (round, id);


--
-- Name: groups groups_round_position_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_round_position_key UNIQUE (round, "position");


--
-- Name: pace_migrations pace_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pace_migrations
    ADD CONSTRAINT pace_migrations_pkey PRIMARY KEY (name);


--
-- Name: players players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_pkey PRIMARY KEY (round, group_id, "position");


--
-- Name: rounds rounds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_pkey PRIMARY KEY (name);


--
-- Name: events_round_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_round_seq ON public.events USING btree (round, seq);


--
-- Name: rounds_course; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX rounds_course ON public.rounds USING btree (course);


--
-- Name: events events_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION public.pace_events_append_only();


--
-- Name: events events_no_update_or_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_no_update_or_delete BEFORE DELETE OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION public.pace_events_append_only();


--
-- Name: events events_round_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_round_fkey FOREIGN KEY (round) REFERENCES public.rounds(name);


--
-- Name: groups groups_round_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_round_fkey FOREIGN KEY (round) REFERENCES public.rounds(name) ON DELETE CASCADE;


--
-- Name: players players_round_group_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_round_group_id_fkey FOREIGN KEY (round, group_id) REFERENCES public.groups(round, id) ON DELETE CASCADE;


--
-- Name: rounds rounds_course_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_course_fkey FOREIGN KEY (course) REFERENCES public.courses(name);


--
-- PostgreSQL database dump complete
--


