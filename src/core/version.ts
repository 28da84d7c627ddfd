/** mdq's version, sent in the `User-Agent` header; kept equal to `version` in package.json (a test checks). */
export const VERSION = '0.1.0';
