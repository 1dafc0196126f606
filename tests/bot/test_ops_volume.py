"""``doctor`` on where a container keeps its data (issue 24): a SQLite file
not on a mounted volume is lost with the container (WARN); a folder the
bot's user cannot write -- a bind mount owned by root -- is one FAIL line
that says how to own it."""

from __future__ import annotations

from bot.__main__ import main
from bot.cli.ops_doctor import check_data_place, mount_of, mount_points

#: /proc/self/mountinfo of a container with the image's /data volume
WITH_VOLUME = """\
612 540 0:58 / / rw,relatime master:300 - overlay overlay rw,lowerdir=/x
613 612 0:61 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
620 612 8:1 /var/lib/docker/volumes/cardtable-data/_data /data rw,relatime - ext4 /dev/sda1 rw
621 612 8:1 /home/me/card\\040table/data /srv/my\\040data rw,relatime - ext4 /dev/sda1 rw
"""
WITHOUT_VOLUME = "\n".join(WITH_VOLUME.splitlines()[:2])


def test_mount_points_are_read_and_unescaped():
    points = mount_points(WITH_VOLUME)
    assert points == ["/", "/proc", "/data", "/srv/my data"]
    assert mount_of("/data", points) == "/data"
    assert mount_of("/data/sub", points) == "/data"
    assert mount_of("/database", points) == "/"
    assert mount_of("/srv/my data", points) == "/srv/my data"


def test_a_database_on_no_volume_is_a_warning_in_a_container(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cardtable.db'}"
    check = check_data_place(url, container=True, mountinfo=WITHOUT_VOLUME)
    assert check is not None and check.ok and check.warn
    assert check.line().startswith(
        f"WARN data: {tmp_path / 'cardtable.db'} is inside the container"
    )
    assert "-v cardtable-data:/data" in check.line() and "leave DATABASE_URL unset" in check.line()


def test_a_database_on_a_volume_passes(tmp_path):
    mountinfo = WITH_VOLUME + f"700 612 8:1 /vol {tmp_path} rw - ext4 /dev/sda1 rw\n"
    check = check_data_place(
        f"sqlite+aiosqlite:///{tmp_path}/c.db", container=True, mountinfo=mountinfo
    )
    assert check is not None and check.ok and not check.warn
    assert check.text.endswith(f"is on the volume mounted at {tmp_path}")


def test_outside_a_container_and_for_postgresql_there_is_nothing_to_say(tmp_path):
    assert check_data_place(f"sqlite+aiosqlite:///{tmp_path}/c.db", container=False) is None
    url = "postgresql+asyncpg://u@db/cardtable"
    assert check_data_place(url, container=True, mountinfo=WITHOUT_VOLUME) is None
    assert check_data_place("sqlite+aiosqlite://", container=True) is None


def test_a_folder_the_bot_cannot_write_says_how_to_own_it_in_one_line(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/c.db"
    check = check_data_place(
        url, container=True, mountinfo=WITH_VOLUME, writable=lambda path: False, uid=10001
    )
    assert check is not None and not check.ok
    line = check.line()
    assert line.startswith(f"FAIL data: {tmp_path} belongs to uid")
    assert "the bot runs as uid 10001: permission denied" in line
    assert "sudo chown -R 10001:10001" in line
    assert "\n" not in line


def test_doctor_prints_the_warning_and_still_passes(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("bot.cli.ops_doctor.in_container", lambda: True)
    (tmp_path / "mountinfo").write_text(WITHOUT_VOLUME)
    monkeypatch.setattr("bot.cli.ops_doctor.MOUNTINFO", tmp_path / "mountinfo")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    main(["doctor", "--quick"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines] == ["token:", "database:", "data:"]
    assert lines[2].startswith("WARN data:")
