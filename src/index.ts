export * from './core/errors.js';
export { parseJson, stringifyJson } from './core/json.js';
