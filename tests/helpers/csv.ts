// CSV as the exports write it (RFC 4180: quoted fields, doubled quotes, CRLF rows), read back
// field by field; and a streamed export's chunks joined.

/** The rows of `text`, each a list of its fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') {
        f += '"';
        i++;
      } else if (c === '"') q = false;
      else f += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      row.push(f);
      f = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(f);
      rows.push(row);
      row = [];
      f = '';
      i++;
    } else f += c;
  }
  if (f !== '' || row.length) {
    row.push(f);
    rows.push(row);
  }
  return rows;
}

/** The whole text of a streamed export. */
export async function collect(gen: AsyncGenerator<string>): Promise<string> {
  let s = '';
  for await (const c of gen) s += c;
  return s;
}
