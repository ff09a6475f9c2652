// "Find your group or name" on the board and the leaderboard (issue 47): a player on his own
// phone types his name, or a part of it, or his group's number, and only the rows that match
// are left; the rest are hidden until the field is emptied. Case and accents do not matter
// ("belanger" finds Marc Bélanger). The rows are redrawn as the round goes: the page calls
// apply() again after each redraw, so the filter holds.

const fold = (text) =>
  String(text || "")
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();

/**
 * Wire the field ``input`` to the rows of ``body``.
 *
 * :param rows: the rows a query chooses from (a selector inside ``body``)
 * :param words: a row's texts to match (a name matches on any part; ``group`` on its whole)
 * :param none: the element that says nothing matched, shown only then
 * :param follows: rows that follow a row and go with it (a leaderboard entry's detail)
 * :param lines: rows hidden while a query is on (a tee's heading line)
 * :param found: called with the rows left as the player types (not as the rows are redrawn)
 * Returns ``apply()``, to call after the rows are redrawn.
 */
export function findRows(input, body, { rows, words, none, follows = null, lines = null, found = null }) {
  const apply = () => {
    const query = fold(input.value);
    let shown = 0;
    let keep = true;
    for (const row of body.children) {
      if (row.matches(rows)) {
        const { names, group } = words(row);
        keep = !query || fold(group) === query || names.some((n) => fold(n).includes(query));
        row.hidden = !keep;
        if (keep) shown += 1;
      } else if (follows && row.matches(follows)) {
        row.hidden = !keep; // a row's detail goes with it
      } else if (lines && row.matches(lines)) {
        row.hidden = Boolean(query);
      }
    }
    if (none) none.hidden = !query || shown > 0;
  };
  input.addEventListener("input", () => {
    apply();
    if (found) found([...body.querySelectorAll(rows)].filter((row) => !row.hidden));
  });
  // the field submits nothing: Enter keeps the page where it is
  input.form?.addEventListener("submit", (event) => event.preventDefault());
  return apply;
}
