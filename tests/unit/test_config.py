"""Configuration: defaults, the repository's config.toml, PACE_CONFIG and validation (issue 2)."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from pace import config

REPO_CONFIG = Path(__file__).resolve().parents[2] / "config.toml"


@pytest.fixture(autouse=True)
def _no_config_in_sight(tmp_path, monkeypatch):
    # Each test starts in an empty folder with no PACE_CONFIG, so the developer's own
    # environment never leaks in.
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def write(tmp_path: Path, text: str, name: str = "pace.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- defaults


def test_defaults_without_a_file_are_the_documented_values():
    s = config.load()
    assert s.source == "<defaults>"
    assert (s.server.host, s.server.port, s.server.async_mode) == ("127.0.0.1", 5000, "gevent")
    assert (s.database.path, s.database.synchronous) == ("pace.db", "FULL")
    assert (s.scheduler.enabled, s.scheduler.tick_seconds) == (True, 5.0)
    assert (s.round.timezone, s.round.policy, s.round.standard_interval_min) == (
        "Europe/Brussels",
        "frbg",
        0.0,
    )
    a = s.allotment
    assert a.average_min == {2: 12.0, 3: 14.0, 4: 15.0}  # docs/rules.md §1
    assert a.par_split_min == 3.0
    assert a.starters_gap_factor == 1.5  # docs/rules.md §3
    assert a.gap_margin_min == 0.0
    assert (a.single_player_column, a.large_group_column) == (2, 4)


def test_default_pace_settings_carry_the_rules_numbers():
    p = config.Settings().pace_settings()
    assert p.averages == {
        2: timedelta(minutes=12),
        3: timedelta(minutes=14),
        4: timedelta(minutes=15),
    }
    assert p.par_split == timedelta(minutes=3)
    assert p.standard_interval is None  # most common interval of the draw
    assert p.gap_factor == 1.5
    assert p.gap_margin == timedelta(0)
    assert (p.small_group_column, p.large_group_column) == (2, 4)


def test_configured_standard_interval_reaches_the_rules_and_an_override_wins(tmp_path):
    s = config.load(write(tmp_path, "[round]\nstandard_interval_min = 9\n"))
    assert s.pace_settings().standard_interval == timedelta(minutes=9)
    assert s.pace_settings(timedelta(minutes=11)).standard_interval == timedelta(minutes=11)


def test_repository_config_loads_and_equals_the_defaults():
    s = config.load(REPO_CONFIG)
    assert s.source == str(REPO_CONFIG)
    assert dataclasses.replace(s, source="<defaults>") == config.Settings()


def test_config_toml_in_the_working_directory_is_read(tmp_path):
    write(tmp_path, "[server]\nport = 5050\n", name="config.toml")
    s = config.load()
    assert s.server.port == 5050
    assert s.source == "config.toml"


def test_pace_config_points_elsewhere(tmp_path, monkeypatch):
    write(tmp_path, "[server]\nport = 5050\n", name="config.toml")
    other = write(tmp_path, '[server]\nport = 6060\n[round]\ntimezone = "UTC"\n', "other.toml")
    monkeypatch.setenv("PACE_CONFIG", str(other))
    s = config.load()
    assert s.server.port == 6060
    assert s.round.timezone == "UTC"
    assert s.source == str(other)


def test_pace_config_naming_a_missing_file_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PACE_CONFIG", str(tmp_path / "nowhere.toml"))
    with pytest.raises(config.ConfigError, match=r"nowhere\.toml: configuration file not found"):
        config.load()


def test_explicit_missing_file_is_an_error(tmp_path):
    with pytest.raises(config.ConfigError, match="not found"):
        config.load(tmp_path / "missing.toml")


def test_partial_file_keeps_the_other_defaults(tmp_path):
    s = config.load(write(tmp_path, '[database]\npath = "club.db"\n'))
    assert s.database.path == "club.db"
    assert s.database.synchronous == "FULL"
    assert s.server == config.ServerSettings()


def test_integers_are_accepted_where_minutes_or_seconds_are_numbers(tmp_path):
    s = config.load(
        write(tmp_path, "[scheduler]\ntick_seconds = 2\n[allotment]\npar_split_min = 0\n")
    )
    assert s.scheduler.tick_seconds == 2.0
    assert isinstance(s.scheduler.tick_seconds, float)
    assert s.allotment.par_split_min == 0.0


# --------------------------------------------------------------------------- errors


# (TOML text, key named in the message, what the message says is expected)
# fmt: off
INVALID = [
    pytest.param("[servr]\nport = 1\n", "[servr]", "expected one of [server]",
                 id="unknown section"),
    pytest.param("[server]\nprot = 5001\n", "server.prot", "expected one of host, port",
                 id="unknown key"),
    pytest.param('[server]\nport = "5000"\n', "server.port", "expected a whole number",
                 id="port as text"),
    pytest.param("[server]\nport = 5000.5\n", "server.port", "expected a whole number",
                 id="port with decimals"),
    pytest.param("[server]\nport = 0\n", "server.port", "from 1 to 65535", id="port 0"),
    pytest.param("[server]\nport = 70000\n", "server.port", "from 1 to 65535",
                 id="port above 65535"),
    pytest.param('[server]\nasync_mode = "eventlet"\n', "server.async_mode",
                 "'gevent' or 'threading'", id="async mode eventlet"),
    pytest.param('[server]\nhost = ""\n', "server.host", "an address", id="empty host"),
    pytest.param("[scheduler]\nenabled = 1\n", "scheduler.enabled", "true or false",
                 id="enabled not a boolean"),
    pytest.param("[scheduler]\ntick_seconds = 0\n", "scheduler.tick_seconds",
                 "seconds between 0.05 and 3600", id="tick 0"),
    pytest.param('[scheduler]\ntick_seconds = "5"\n', "scheduler.tick_seconds", "a number",
                 id="tick as text"),
    pytest.param('[database]\nsynchronous = "SOMETIMES"\n', "database.synchronous",
                 "OFF, NORMAL, FULL, EXTRA", id="unknown synchronous level"),
    pytest.param('[database]\npath = ""\n', "database.path", "a file path",
                 id="empty database path"),
    pytest.param('[round]\ntimezone = "Europe/Bruxelles"\n', "round.timezone",
                 "an IANA time zone", id="bad timezone"),
    pytest.param('[round]\ntimezone = ""\n', "round.timezone", "an IANA time zone",
                 id="empty timezone"),
    pytest.param('[round]\npolicy = "fast"\n', "round.policy", "'frbg' or 'mauricie' or 'swin'",
                 id="unknown policy"),
    pytest.param("[round]\nstandard_interval_min = -8\n", "round.standard_interval_min",
                 "minutes from 0", id="negative interval"),
    pytest.param("[allotment]\naverage_min = { 2 = 12, 3 = 14 }\n", "allotment.average_min",
                 "a value for groups of 4", id="missing 4-ball average"),
    pytest.param("[allotment]\naverage_min = 15\n", "allotment.average_min", "a table",
                 id="average not a table"),
    pytest.param('[allotment]\naverage_min = { two = 12, 3 = 14, 4 = 15 }\n',
                 "allotment.average_min", "group sizes mapped to minutes",
                 id="average keyed by a word"),
    pytest.param("[allotment]\naverage_min = { 2 = 0, 3 = 14, 4 = 15 }\n",
                 "allotment.average_min", "1–60 minutes", id="average of zero minutes"),
    pytest.param("[allotment]\npar_split_min = 12\n", "allotment.par_split_min",
                 "less than every average", id="split equal to the smallest average"),
    pytest.param("[allotment]\npar_split_min = 20\n", "allotment.par_split_min",
                 "less than every average", id="split above the averages"),
    pytest.param("[allotment]\npar_split_min = -1\n", "allotment.par_split_min",
                 "minutes from 0", id="negative split"),
    pytest.param("[allotment]\nstarters_gap_factor = 1\n", "allotment.starters_gap_factor",
                 "above 1", id="gap factor 1"),
    pytest.param("[allotment]\ngap_margin_min = -2\n", "allotment.gap_margin_min",
                 "minutes from 0 to 30", id="negative margin"),
    pytest.param("[allotment]\nsingle_player_column = 1\n", "allotment.single_player_column",
                 "a group size listed in allotment.average_min", id="column without average"),
    pytest.param("server = 5\n", "server", "a table [server]", id="section not a table"),
    pytest.param('[server]\nmetrics_from = "127.0.0.1"\n', "server.metrics_from",
                 "a list of strings", id="metrics_from not a list"),
    pytest.param('[server]\nmetrics_from = ["localhost"]\n', "server.metrics_from",
                 "addresses or networks", id="metrics_from a host name"),
    pytest.param('[server]\nlog_format = "JSON lines"\n', "server.log_format",
                 "'text' or 'json'", id="log format unknown"),
    pytest.param("[backup]\nevery_minutes = 0.5\n", "backup.every_minutes",
                 "minutes from 1 to 1440 (or 0: no scheduled backups)", id="backups too often"),
    pytest.param("[backup]\nkeep = 0\n", "backup.keep", "a number of snapshots per round",
                 id="backups none kept"),
    pytest.param('[backup]\nfolder = ""\n', "backup.folder", "a folder", id="backup folder empty"),
    pytest.param("[handicap]\nstableford = 105\n", "handicap.stableford",
                 "a percentage from 0 to 100", id="allowance above 100"),
    pytest.param('[handicap]\nfoursome = "half"\n', "handicap.foursome", "a number",
                 id="allowance not a number"),
]
# fmt: on


@pytest.mark.parametrize(("text", "key", "expected"), INVALID)
def test_invalid_setting_names_the_file_the_key_and_what_is_expected(tmp_path, text, key, expected):
    path = write(tmp_path, text)
    with pytest.raises(config.ConfigError) as info:
        config.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    assert key in message
    assert "expected" in message
    assert expected in message


def test_config_error_is_a_pace_error_and_a_value_error(tmp_path):
    with pytest.raises(ValueError) as info:
        config.load(write(tmp_path, "[server]\nport = 0\n"))
    assert info.value.code == "invalid_config"
    assert info.value.field == "server.port"


def test_unknown_key_is_reported_under_its_section(tmp_path):
    with pytest.raises(config.ConfigError) as info:
        config.load(write(tmp_path, "[allotment]\nparsplit = 3\n"))
    assert info.value.field == "allotment.parsplit"


def test_syntax_error_names_the_file(tmp_path):
    path = write(tmp_path, "[server\nport = 1\n")
    with pytest.raises(config.ConfigError, match=rf"^{re.escape(str(path))}: not valid TOML"):
        config.load(path)


def test_file_not_in_utf8_names_the_file(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[round]\ntimezone = "Europe/Brussels" # déjà\n'.encode("latin-1"))
    with pytest.raises(config.ConfigError, match="not UTF-8"):
        config.load(path)


def test_metrics_settings_read_a_list_of_addresses_and_networks(tmp_path):
    text = '[server]\nmetrics = true\nmetrics_from = ["10.0.0.0/8", "::1"]\n'
    s = config.load(write(tmp_path, text))
    assert s.server.metrics is True and s.server.metrics_from == ("10.0.0.0/8", "::1")
    assert config.Settings().server.metrics is False  # off unless set


def test_log_format_and_backups_default_to_text_and_none(tmp_path):
    defaults = config.Settings()
    assert defaults.server.log_format == "text" and defaults.backup.every_minutes == 0
    text = '[server]\nlog_format = "json"\n[backup]\nevery_minutes = 10\nfolder = "/b"\nkeep = 36\n'
    s = config.load(write(tmp_path, text))
    assert s.server.log_format == "json"
    assert (s.backup.every_minutes, s.backup.folder, s.backup.keep) == (10.0, "/b", 36)


def test_settings_are_frozen():
    s = config.Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.server.port = 1  # type: ignore[misc]


# --------------------------------------------------------------------------- documentation


def _documented_keys(text: str) -> dict[str, bool]:
    """Map each ``section.key`` of a TOML text to whether a comment stands above it.

    A key is documented when the lines above it, up to the previous blank line or table
    header, hold a comment: either directly above, or above a run of keys it belongs to
    (``host`` and ``port`` under "# Address and port ...").
    """
    lines = text.splitlines()
    section = ""
    out: dict[str, bool] = {}
    for i, line in enumerate(lines):
        stripped = line.strip()
        header = re.fullmatch(r"\[([A-Za-z_]+)\]", stripped)
        if header:
            section = header[1]
            continue
        key = re.match(r"([A-Za-z_][A-Za-z0-9_]*)\s*=", stripped)
        if not key:
            continue
        documented = False
        for above in reversed(lines[:i]):
            above = above.strip()
            if above.startswith("#"):
                documented = True
                break
            if not above or above.startswith("["):
                break
        out[f"{section}.{key[1]}"] = documented
    return out


def test_every_key_of_config_toml_has_a_comment_above_it():
    text = REPO_CONFIG.read_text(encoding="utf-8")
    keys = _documented_keys(text)
    undocumented = [k for k, ok in keys.items() if not ok]
    assert not undocumented, f"keys without a comment above them: {undocumented}"


def test_config_toml_lists_every_setting():
    data = tomllib.loads(REPO_CONFIG.read_text(encoding="utf-8"))
    for name, cls in config._SECTIONS.items():
        assert set(data[name]) == {f.name for f in dataclasses.fields(cls)}, name


def test_documentation_check_catches_a_bare_key():
    assert _documented_keys("[server]\n# the port\nport = 1\n\nhost = 'x'\n") == {
        "server.port": True,
        "server.host": False,
    }


# --------------------------------------------------------------------------- custom policies


def test_a_custom_policy_starts_from_its_base_preset(tmp_path):
    text = """
[policies.club]
base = "swin"
stroke_allowance_s = 45
stroke_ladder = ["warning", "strokes:1"]
notification_gate = true
ball_search_min = 4

[round]
policy = "club"
"""
    s = config.load(write(tmp_path, text))
    club = s.policy("club")
    assert club.stroke_allowance == timedelta(seconds=45)
    assert club.extra_allowance == timedelta(0)  # from swin
    assert club.stroke_ladder == ("warning", "strokes:1")
    assert club.match_ladder == ("points:1",)  # from swin
    assert club.notification_gate is True and club.ball_search == timedelta(minutes=4)
    assert club.description == "custom policy based on swin"
    assert s.round.policy == "club"
    assert s.policy_names == ("frbg", "mauricie", "swin", "club")


def test_a_table_named_after_a_preset_changes_its_numbers(tmp_path):
    s = config.load(write(tmp_path, "[policies.frbg]\nstroke_allowance_s = 35\n"))
    frbg = s.policy("frbg")
    assert frbg.stroke_allowance == timedelta(seconds=35)
    assert frbg.stroke_ladder == ("warning", "strokes:1", "strokes:2", "disqualification")
    assert "Belgian" in frbg.description


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[policies.club]\nallowance = 45\n", "policies.club.allowance", "unknown key"),
        ("[policies.club]\nbase = 'r&a'\n", "policies.club.base", "expected the name of a preset"),
        ("[policies.club]\nstroke_allowance_s = '45'\n", "policies.club.stroke_allowance_s",
         "expected seconds from 5 to 300"),
        ("[policies.club]\nstroke_ladder = ['warning', 'stroke:1']\n",
         "policies.club.stroke_ladder", "unknown ladder step 'stroke:1'"),
        ("[policies.club]\nmatch_ladder = []\n", "policies.club.match_ladder", "expected a list"),
        ("[policies.club]\nrepeat_last = 1\n", "policies.club.repeat_last", "true or false"),
        ("[policies.club]\nfaults_from = 'marshals'\n", "policies.club.faults_from",
         "'bad_times' or 'checkpoints'"),
        ("[policies.club]\ncheckpoint_holes = 0\n", "policies.club.checkpoint_holes",
         "whole number of holes"),
        ("[policies.Club]\n", "policies.Club", "lower-case letters"),
        ("policies = 3\n", "policies", "expected tables"),
        ("[round]\npolicy = 'club'\n", "round.policy", "'frbg' or 'mauricie' or 'swin'"),
    ],
    ids=["unknown-key", "base", "type", "step", "empty-ladder", "flag", "faults-from",
         "checkpoint-holes", "name", "not-a-table", "round-policy-unknown"],
)  # fmt: skip
def test_a_bad_custom_policy_names_the_file_the_key_and_what_is_expected(
    tmp_path, text, key, words
):
    path = write(tmp_path, text)
    with pytest.raises(config.ConfigError) as info:
        config.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and key in message and words in message
    assert info.value.field == key


def test_the_commented_policy_example_of_config_toml_is_valid():
    text = REPO_CONFIG.read_text(encoding="utf-8")
    example = text.split("# Uncomment and adapt:", 1)[1]
    lines = [line[2:] for line in example.splitlines() if line.startswith("# ")]
    s = config.from_dict(tomllib.loads("\n".join(lines)), source="example")
    assert set(s.policies) == {"club"}
    assert s.policy("club").stroke_allowance == timedelta(seconds=45)


def test_handicap_allowances_default_to_the_world_handicap_system_and_may_change(tmp_path):
    # docs/rules.md §10.1: 95 % stroke play and Stableford, 85 % four-ball stroke play, 100 %
    # match play, 90 % four-ball match play, 50 % foursome, 60/40 greensome, 95 % bogey/par
    a = config.Settings().allowances()
    assert (a.stroke_play, a.stableford, a.bogey_par, a.match_play) == (95, 95, 95, 100)
    assert (a.four_ball_stroke_play, a.four_ball_match_play, a.foursome) == (85, 90, 50)
    assert (a.greensome_lower, a.greensome_higher) == (60, 40)
    changed = config.load(write(tmp_path, "[handicap]\nstroke_play = 100\nfoursome = 40\n"))
    assert (changed.allowances().stroke_play, changed.allowances().foursome) == (100, 40)
    assert changed.allowances().stableford == 95


# --------------------------------------------------------------------------- server.database


def test_server_database_is_the_database_path_under_another_name(tmp_path):
    url = "postgresql://pace@db.example/pace"
    s = config.load(write(tmp_path, f'[server]\ndatabase = "{url}"\nport = 5001\n'))
    assert s.database.path == url and s.server.port == 5001
    same = f'[server]\ndatabase = "{url}"\n[database]\npath = "{url}"\n'
    assert config.load(write(tmp_path, same)).database.path == url


def test_server_database_and_a_different_database_path_are_refused(tmp_path):
    text = '[server]\ndatabase = "a.db"\n[database]\npath = "b.db"\n'
    with pytest.raises(config.ConfigError, match="same setting") as e:
        config.load(write(tmp_path, text))
    assert e.value.field == "server.database"
    with pytest.raises(config.ConfigError, match="postgresql://"):
        config.load(write(tmp_path, '[server]\ndatabase = "postgresql://host/db/extra"\n'))
