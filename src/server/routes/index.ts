import type { Hono } from 'hono';
import type { ServerContext } from '../context.js';
import type { AppEnv } from '../http.js';
import { aggregateRoutes } from './aggregates.js';
import { crossAssetRoutes } from './cross-asset.js';
import { forexCryptoRoutes } from './forex-crypto.js';
import { futuresRoutes } from './futures.js';
import { indicatorRoutes } from './indicators.js';
import { lastRoutes } from './last.js';
import { marketStatusRoutes } from './market-status.js';
import { optionsSnapshotRoutes } from './options-snapshots.js';
import { referenceRoutes } from './reference.js';
import { snapshotRoutes } from './snapshots.js';
import { stocksReferenceRoutes } from './stocks-reference.js';
import { tradesQuotesRoutes } from './trades-quotes.js';
import { webPageRoutes } from './web-page.js';

/** A route module registers the routes of one API family on the app. */
export type RouteModule = (app: Hono<AppEnv>, ctx: ServerContext) => void;

/** Every route module, mounted in this order. Add a family's module here. */
export const routeModules: readonly RouteModule[] = [
  aggregateRoutes,
  tradesQuotesRoutes,
  lastRoutes,
  indicatorRoutes,
  forexCryptoRoutes,
  snapshotRoutes,
  optionsSnapshotRoutes,
  crossAssetRoutes,
  referenceRoutes,
  stocksReferenceRoutes,
  marketStatusRoutes,
  futuresRoutes,
  webPageRoutes,
];
