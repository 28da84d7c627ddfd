import { createRequire } from 'node:module';

/**
 * Renders an SVG document to PNG bytes with resvg (fonts from the system, DejaVu Sans preferred).
 * The renderer is loaded on first use, so commands that draw no PNG never load the native module.
 */
export function svgToPng(svg: string): Uint8Array {
  const require = createRequire(import.meta.url);
  const { Resvg } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const renderer = new Resvg(svg, {
    background: '#ffffff',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return renderer.render().asPng();
}
