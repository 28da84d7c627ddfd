export * from './core/errors.js';
export { parseJson, stringifyJson } from './core/json.js';
export * from './dates/index.js';
export * from './symbols/index.js';
