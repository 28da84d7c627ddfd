/**
 * Calls `fn` for each line of `text` with its 1-based number. Accepts LF and CRLF endings and a missing
 * final newline; a trailing newline does not produce an empty last line. Blank lines are passed on (the
 * caller decides whether they are errors).
 */
export function eachLine(text: string, fn: (line: string, lineNo: number) => void): void {
  let start = 0;
  let lineNo = 0;
  const n = text.length;
  while (start < n) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = n;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    fn(text.slice(start, stop), ++lineNo);
    start = end + 1;
  }
}
