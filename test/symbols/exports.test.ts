import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as root from '../../src/index.js';

test('the toolkit is exported from the package root', () => {
  for (const name of [
    'OptionSymbolFormat',
    'OptionSymbol',
    'buildOptionSymbol',
    'buildPolygonOptionSymbol',
    'parseOptionSymbol',
    'parsePolygonOptionSymbol',
    'convertOptionSymbolFormats',
    'detectOptionSymbolFormat',
    'detectOptionSymbolFormats',
    'ensurePrefix',
    'normalizeOptionTicker',
    'buildOptionSymbolForTda',
    'parseOptionSymbolFromTda',
  ]) {
    assert.ok(name in root, name);
  }
});
