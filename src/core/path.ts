/**
 * Builds request paths from templates. Every value is percent-encoded as one segment, so tickers such
 * as `BRK.B`, `O:SPY251219C00650000` or `C:EUR/USD` can never create new segments. `:` stays literal:
 * it is valid in a path segment and is how the service writes its prefixes.
 */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':');
}

/** Replaces each `{name}` of `template` with the encoded value of `values[name]`. */
export function expandPath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`path ${template} needs {${name}}`);
    return encodeSegment(v);
  });
}
