/**
 * The web page calls each endpoint through the declaration its class's client uses: same path template,
 * parameters, defaults and limits, so the page cannot send a request the library would not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cryptoOperations,
  forexOperations,
  futuresOperations,
  indicesOperations,
  optionsOperations,
  referenceOperations,
  stocksOperations,
} from '../../src/clients/index.js';
import {
  barOperations,
  optionContracts,
  optionsChainSnapshot,
  futuresOperations as pageFutures,
  tickers,
  tickOperations,
} from '../../src/web/operations.js';

test('the page’s aggregate bars are each class client’s getAggregateBars', () => {
  assert.deepEqual(barOperations, {
    stocks: stocksOperations.getAggregateBars,
    options: optionsOperations.getAggregateBars,
    indices: indicesOperations.getAggregateBars,
    fx: forexOperations.getAggregateBars,
    crypto: cryptoOperations.getAggregateBars,
  });
});

test('the page’s trades, quotes, chain, search and futures are the clients’ declarations', () => {
  assert.deepEqual(tickOperations, {
    trades: stocksOperations.getTradesV3,
    quotes: stocksOperations.getQuotesV3,
  });
  assert.equal(optionsChainSnapshot, optionsOperations.getSnapshotChain);
  assert.equal(optionContracts, referenceOperations.getOptionContracts);
  assert.equal(tickers, referenceOperations.getTickers);
  assert.equal(pageFutures, futuresOperations);
});
