/**
 * Splits one CSV line into fields (RFC 4180 quoting: `"12,37"` is one field, `""` inside quotes is a
 * quote). Returns undefined when a quoted field is not closed.
 */
export function splitCsvLine(line: string): string[] | undefined {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (line.charCodeAt(i) === 34) {
      let value = '';
      i++;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close === -1) return undefined;
        value += line.slice(i, close);
        if (line.charCodeAt(close + 1) === 34) {
          value += '"';
          i = close + 2;
        } else {
          i = close + 1;
          break;
        }
      }
      out.push(value);
      if (i === n) return out;
      if (line.charCodeAt(i) !== 44) return undefined;
      i++;
    } else {
      const comma = line.indexOf(',', i);
      if (comma === -1) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}
