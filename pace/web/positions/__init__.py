"""The groups' phones share where their group is (issue 48; docs/positions.md)."""
