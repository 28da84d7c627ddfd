import type { Hono } from 'hono';
import type { ServerContext } from '../context.js';
import type { AppEnv } from '../http.js';

/** A route module registers the routes of one API family on the app. */
export type RouteModule = (app: Hono<AppEnv>, ctx: ServerContext) => void;

/** Every route module, mounted in this order. Add a family's module here. */
export const routeModules: readonly RouteModule[] = [];
