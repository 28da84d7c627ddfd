import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  cryptoOperations,
  forexOperations,
  futuresOperations,
  indicesOperations,
  optionsOperations,
  referenceOperations,
  stocksOperations,
} from '../../src/clients/index.js';
import { fullRangeOptionGroup, paginationOptionGroup } from '../../src/core/call-options.js';
import { parseJson } from '../../src/core/json.js';
import type { ParamSpec } from '../../src/core/operation.js';
import type { OptionSpec } from '../../src/core/option-group.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import type { Store } from '../../src/server/store/store.js';
import { assertNoKey, type BinResult, envFor, KEY, root, runBin, startSimServer } from './support.js';

let server: RunningServer;
let store: Store;
let env: Record<string, string>;

before(async () => {
  ({ server, store } = await startSimServer());
  env = envFor(server);
});
after(async () => {
  await server.close();
  store.close();
});

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The day bar of a stock built straight from the store's minute bars (regular session). */
async function dayFromMinutes(ticker: string, day: string) {
  const rows = await store.all<{ o: number; h: number; l: number; c: number; v: number; n: bigint }>(
    `SELECT arg_min(o, t) AS o, max(h) AS h, min(l) AS l, arg_max(c, t) AS c, sum(v) AS v, count(*) AS n
       FROM bars WHERE ticker = $1 AND resolution = 'minute' AND to_timestamp(t / 1000)::DATE = $2::DATE`,
    [ticker, day],
  );
  return rows[0] as { o: number; h: number; l: number; c: number; v: number; n: bigint };
}

describe('help derived from the operation declarations', () => {
  test('mdq --help lists every command', async () => {
    const r = await runBin(['--help'], env);
    assert.equal(r.code, 0);
    for (const word of [
      'stocks',
      'options',
      'indices',
      'forex',
      'crypto',
      'reference',
      'symbols',
      'dates',
      'chart',
      'serve',
      'ingest',
      'demo',
    ]) {
      assert.match(r.stdout, new RegExp(`^  ${word}\\b`, 'm'), word);
    }
    assertNoKey(r);
  });

  const families = {
    stocks: stocksOperations,
    options: optionsOperations,
    indices: indicesOperations,
    forex: forexOperations,
    crypto: cryptoOperations,
    futures: futuresOperations,
    reference: referenceOperations,
  };
  for (const [family, ops] of Object.entries(families)) {
    test(`mdq ${family} --help lists each of its ${Object.keys(ops).length} operations`, async () => {
      const r = await runBin([family, '--help'], env);
      assert.equal(r.code, 0, r.stderr);
      for (const name of Object.keys(ops))
        assert.match(r.stdout, new RegExp(`^  ${kebab(name)}\\b`, 'm'), name);
    });
  }

  test('operation help names every parameter with its type and default', async () => {
    const r = await runBin(['stocks', 'get-aggregate-bars', '--help'], env);
    assert.equal(r.code, 0);
    const op = stocksOperations.getAggregateBars;
    for (const p of op.params as readonly ParamSpec[]) {
      const shown = p.required ? `<${kebab(p.name)}>` : `--${kebab(p.name)}`;
      const lines = r.stdout.split('\n');
      const at = lines.findIndex((l) => l.trimStart().startsWith(shown));
      assert.ok(at >= 0, `${shown} is listed`);
      // A long name and type push the description onto the next, indented line.
      const next = lines[at + 1] ?? '';
      const line = `${lines[at]} ${/^\s{10,}/.test(next) ? next.trim() : ''}`;
      if (p.default !== undefined)
        assert.match(line, new RegExp(`\\[default: ${p.default}\\]`), `${shown} default`);
      if (p.type.kind === 'enum')
        for (const v of p.type.values) assert.ok(line.includes(v), `${shown} allows ${v}`);
    }
    // The option groups' flags, from their declarations: each listed once, with its default.
    const declared: readonly OptionSpec[] = [
      ...fullRangeOptionGroup.options,
      ...paginationOptionGroup.options,
    ];
    const flags = declared.filter((o) => o.cli);
    assert.ok(flags.length >= 6);
    const lines = r.stdout.split('\n');
    for (const o of flags) {
      const shown = `--${kebab(o.name)}`;
      const at = lines.flatMap((l, i) => (l.trimStart().split(' ')[0] === shown ? [i] : []));
      assert.equal(at.length, 1, `${shown} is listed once`);
      const next = lines[(at[0] as number) + 1] ?? '';
      const line = `${lines[at[0] as number]} ${/^\s{10,}/.test(next) ? next.trim() : ''}`;
      if (o.default !== undefined) assert.ok(line.includes(`[default: ${o.default}]`), `${shown} default`);
    }
    for (const o of ['--verbose', '--max-items', '--on-progress', '--raw-response']) {
      assert.ok(!r.stdout.includes(o), `${o} is not a flag`);
    }
  });
});

describe('client commands against the server', () => {
  test('daily bars as JSON match bars built from the stored minutes', async () => {
    const day = '2024-12-30';
    const r = await runBin(['stocks', 'get-aggregate-bars', 'SIMC', day, day, '--timespan', 'day'], env);
    assert.equal(r.code, 0, r.stderr);
    assertNoKey(r);
    const body = parseJson(r.stdout) as {
      results: { o: number; h: number; l: number; c: number; v: number }[];
    };
    const want = await dayFromMinutes('SIMC', day);
    assert.equal(body.results.length, 1);
    const bar = body.results[0] as { o: number; h: number; l: number; c: number; v: number };
    assert.deepEqual([bar.o, bar.h, bar.l, bar.c, bar.v], [want.o, want.h, want.l, want.c, want.v]);
  });

  test('csv, ndjson and table render the same bars', async () => {
    const args = ['stocks', 'get-aggregate-bars', 'SIME', '2024-12-30', '2024-12-31', '--timespan', 'hour'];
    const [json, csv, nd, table] = (await Promise.all(
      ['json', 'csv', 'ndjson', 'table'].map((o) => runBin([...args, '--output', o], env)),
    )) as [BinResult, BinResult, BinResult, BinResult];
    for (const r of [json, csv, nd, table]) {
      assert.equal(r.code, 0, r.stderr);
      assertNoKey(r);
    }
    const bars = (parseJson(json.stdout) as { results: { t: number; c: number }[] }).results;
    assert.ok(bars.length >= 14);
    const csvLines = csv.stdout.trimEnd().split('\n');
    const header = (csvLines[0] as string).split(',');
    assert.equal(csvLines.length, bars.length + 1);
    const tCol = header.indexOf('t');
    const cCol = header.indexOf('c');
    csvLines.slice(1).forEach((line, i) => {
      const cells = line.split(',');
      assert.equal(Number(cells[tCol]), bars[i]?.t);
      assert.equal(Number(cells[cCol]), bars[i]?.c);
    });
    const ndRows = nd.stdout
      .trimEnd()
      .split('\n')
      .map((l) => parseJson(l) as { t: number });
    assert.deepEqual(
      ndRows.map((r) => r.t),
      bars.map((b) => b.t),
    );
    // Tables show times on New York's wall clock: the first hour bar of 2024-12-30 starts 09:00 EST.
    const first = new Date(bars[0]?.t ?? 0);
    const wall = first.toLocaleString('sv-SE', { timeZone: 'America/New_York' }).slice(0, 16);
    assert.ok(table.stdout.includes(`${wall}:00 EST`), `table shows ${wall}`);
  });

  test('piped output defaults to JSON', async () => {
    const r = await runBin(['stocks', 'get-previous-close', 'SIMA'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((parseJson(r.stdout) as { ticker: string }).ticker, 'SIMA');
  });

  test('--full-range returns every minute bar of the range, as stored', async () => {
    const r = await runBin(
      [
        'stocks',
        'get-aggregate-bars',
        'SIMD',
        '2024-10-01',
        '2024-12-31',
        '--timespan',
        'minute',
        '--full-range',
      ],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    const bars = parseJson(r.stdout) as { t: number }[];
    const rows = await store.all<{ n: bigint; first: bigint; last: bigint }>(
      `SELECT count(*) AS n, min(t) AS first, max(t) AS last FROM bars
        WHERE ticker = 'SIMD' AND resolution = 'minute' AND t >= $1 AND t < $2`,
      [BigInt(Date.parse('2024-10-01T04:00:00Z')), BigInt(Date.parse('2025-01-01T05:00:00Z'))],
    );
    assert.equal(bars.length, Number(rows[0]?.n));
    assert.equal(bars[0]?.t, Number(rows[0]?.first));
    assert.equal(bars[bars.length - 1]?.t, Number(rows[0]?.last));
    assert.ok(!r.stderr.includes('chunks'), 'no progress when standard error is piped');
  });

  test('--all-pages follows next_url through every trade of a day', async () => {
    const r = await runBin(
      ['stocks', 'get-trades-v3', 'SIMA', '--timestamp', '2024-12-31', '--limit', '5000', '--all-pages'],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    const body = parseJson(r.stdout) as { results: { sip_timestamp: bigint }[] };
    const start = BigInt(Date.parse('2024-12-31T05:00:00Z')) * 1_000_000n;
    const rows = await store.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM trades WHERE ticker = 'SIMA' AND sip_timestamp >= $1 AND sip_timestamp < $2`,
      [start, start + 86_400_000_000_000n],
    );
    assert.ok(Number(rows[0]?.n) > 5000, 'the day needs several pages');
    assert.equal(body.results.length, Number(rows[0]?.n));
    assert.equal(typeof body.results[0]?.sip_timestamp, 'bigint', 'nanoseconds stay exact in JSON');
  });

  test('every family answers: options, indices, forex, crypto, reference', async () => {
    const runs = await Promise.all([
      runBin(['options', 'get-snapshot-chain', 'SIMA', '--output', 'ndjson'], env),
      runBin(['indices', 'get-previous-close', 'I:SIMX'], env),
      runBin(['forex', 'real-time-currency-conversion', 'EUR', 'USD', '100'], env),
      runBin(['crypto', 'get-previous-close', 'X:BTCUSD'], env),
      runBin(['reference', 'get-tickers', '--market', 'stocks'], env),
      runBin(['stocks', 'get-current-price', 'SIMB'], env),
    ]);
    for (const r of runs) {
      assert.equal(r.code, 0, r.stderr);
      assertNoKey(r);
    }
    const [chain, index, conv, crypto, tickers, price] = runs as [
      (typeof runs)[0],
      (typeof runs)[0],
      (typeof runs)[0],
      (typeof runs)[0],
      (typeof runs)[0],
      (typeof runs)[0],
    ];
    const contracts = await store.all<{ n: bigint }>(
      "SELECT count(*) AS n FROM option_contracts WHERE underlying_ticker = 'SIMA'",
    );
    assert.ok(chain.stdout.trimEnd().split('\n').length >= Math.min(10, Number(contracts[0]?.n)));
    assert.equal((parseJson(index.stdout) as { ticker: string }).ticker, 'I:SIMX');
    const c = parseJson(conv.stdout) as { converted: number; last: { ask: number; bid: number } };
    assert.ok(Math.abs(c.converted - 100 * ((c.last.ask + c.last.bid) / 2)) < 0.02);
    assert.equal((parseJson(crypto.stdout) as { ticker: string }).ticker, 'X:BTCUSD');
    const names = (parseJson(tickers.stdout) as { results: { name: string }[] }).results.map((t) => t.name);
    assert.ok(names.length >= 5 && names.every((n) => n.startsWith('Simulated')), names.join(', '));
    const last = await store.all<{ p: number }>(
      "SELECT arg_max(price, sip_timestamp) AS p FROM trades WHERE ticker = 'SIMB'",
    );
    assert.equal(Number(price.stdout.trim()), last[0]?.p);
  });
});

describe('version and output shapes', () => {
  test('--version and -V print the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
    for (const args of [['--version'], ['-V'], ['stocks', '--version']]) {
      const r = await runBin(args);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${version}\n`, args.join(' '));
    }
  });

  test('ndjson keeps nested objects and lists as JSON', async () => {
    const [nd, json] = await Promise.all(
      ['ndjson', 'json'].map((o) =>
        runBin(['options', 'get-snapshot-chain', 'SIMA', '--limit', '5', '--output', o], env),
      ),
    );
    assert.equal(nd?.code, 0, nd?.stderr);
    const lines = (nd?.stdout ?? '').trimEnd().split('\n');
    const results = (parseJson(json?.stdout ?? '') as { results: Record<string, unknown>[] }).results;
    assert.equal(lines.length, results.length);
    for (const [i, line] of lines.entries()) assert.deepEqual(parseJson(line), results[i]);
    const first = parseJson(lines[0] as string) as { details?: unknown; day?: unknown };
    assert.equal(typeof first.details, 'object');
    assert.doesNotMatch(nd?.stdout ?? '', /\[object Object\]/);
  });

  test('the conversion table shows the converted amount', async () => {
    const args = ['forex', 'real-time-currency-conversion', 'EUR', 'USD', '100'];
    const [table, json] = await Promise.all([
      runBin([...args, '--output', 'table'], env),
      runBin([...args, '--output', 'json'], env),
    ]);
    assert.equal(table.code, 0, table.stderr);
    const converted = (parseJson(json.stdout) as { converted: number }).converted;
    const [header, , row] = table.stdout.split('\n') as [string, string, string];
    const cells = row.trim().split(/\s{2,}/);
    const names = header.trim().split(/\s{2,}/);
    assert.equal(Number(cells[names.indexOf('converted')]), Number(converted.toPrecision(8)));
    assert.equal(cells[names.indexOf('from')], 'EUR');
  });

  test('--columns picks the columns of a table or CSV, in its order', async () => {
    const args = ['stocks', 'get-aggregate-bars', 'SIME', '2024-12-30', '2024-12-31', '--timespan', 'hour'];
    const [csv, json, table] = await Promise.all([
      runBin([...args, '--output', 'csv', '--columns', 'c,t'], env),
      runBin([...args, '--output', 'json'], env),
      runBin([...args, '--output', 'table', '--columns', 'v'], env),
    ]);
    assert.equal(csv.code, 0, csv.stderr);
    const bars = (parseJson(json.stdout) as { results: { t: number; c: number; v: number }[] }).results;
    assert.equal(csv.stdout, `c,t\n${bars.map((b) => `${b.c},${b.t}`).join('\n')}\n`);
    assert.equal(table.code, 0, table.stderr);
    assert.deepEqual(
      table.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.trim()),
      ['v', '─'.repeat(Math.max(1, ...bars.map((b) => String(b.v).length))), ...bars.map((b) => String(b.v))],
    );
  });
});

describe('exit codes and messages', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown command', ['stonks'], /Unknown command "stonks"; allowed: stocks, options/],
    ['missing operation', ['stocks'], /Missing operation for mdq stocks; allowed: get-trades, /],
    [
      'unknown operation',
      ['stocks', 'get-everything'],
      /Unknown operation "get-everything" for mdq stocks; allowed: .*get-aggregate-bars/,
    ],
    [
      'unknown option',
      ['stocks', 'get-previous-close', 'SIMA', '--colour', 'red'],
      /Unknown option --colour .*allowed: .*--adjusted/,
    ],
    [
      'mistyped option',
      ['stocks', 'get-trades-v3', 'SIMA', '--limt', '5'],
      /Unknown option --limt for mdq stocks get-trades-v3; did you mean --limit\?/,
    ],
    ['mistyped global option', ['--verison'], /Unknown option --verison for mdq; did you mean --version\?/],
    [
      'unknown column',
      ['stocks', 'get-previous-close', 'SIMA', '--output', 'csv', '--columns', 'c,close'],
      /Invalid --columns: "close" is not a column of this result; columns: .*\bc\b/,
    ],
    [
      'missing argument',
      ['stocks', 'get-aggregate-bars', 'SIMA', '2024-01-02'],
      /Missing argument <to-date>/,
    ],
    [
      'bad integer',
      ['stocks', 'get-aggregate-bars', 'SIMA', '2024-01-02', '2024-01-03', '--multiplier', 'five'],
      /Invalid --multiplier: "five"; expected int/,
    ],
    [
      'bad enum',
      ['stocks', 'get-aggregate-bars', 'SIMA', '2024-01-02', '2024-01-03', '--timespan', 'fortnight'],
      /timespan.*fortnight.*minute/,
    ],
    [
      'bad output',
      ['stocks', 'get-previous-close', 'SIMA', '--output', 'xml'],
      /Invalid --output: "xml"; allowed: table, json, csv, ndjson/,
    ],
    ['bad option symbol', ['symbols', 'parse', 'NOT-A-SYMBOL'], /Invalid/],
    ['bad futures ticker', ['futures', 'get-trades', 'ESA3'], /Invalid ticker: "ESA3"; expected a futures/],
    [
      'bad futures resolution',
      ['futures', 'get-aggregates', 'ESZ3', '--resolution', '60min'],
      /Invalid resolution: "60min"; expected .*1-59min/,
    ],
  ];
  for (const [name, args, message] of cases) {
    test(`${name}: exit 2 and the message names it`, async () => {
      const r = await runBin([...args, '--api-key', KEY], env);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
      assertNoKey(r);
    });
  }

  test('no key anywhere, for a service not on this machine: exit 2, saying where a key comes from', async () => {
    const r = await runBin(['stocks', 'get-previous-close', 'SIMA'], {
      MDQ_BASE_URL: 'http://10.255.255.1:8765',
    });
    assert.equal(r.code, 2);
    for (const where of ['--api-key', 'MASSIVE_API_KEY', 'POLYGON_API_KEY'])
      assert.ok(r.stderr.includes(where), where);
  });

  test('no key for a local server without keys: it answers; one with keys says the key is missing', async () => {
    const open = await startServer({ store, port: 0, log: () => {} });
    try {
      const [ok, refused] = await Promise.all([
        runBin(['stocks', 'get-previous-close', 'SIMA', '--base-url', open.url]),
        runBin(['stocks', 'get-previous-close', 'SIMA'], { MDQ_BASE_URL: server.url }),
      ]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal((parseJson(ok.stdout) as { ticker: string }).ticker, 'SIMA');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /status 401.*API Key was not provided/);
    } finally {
      await open.close();
    }
  });

  test('a refused key: exit 1 with status and request id, the key never echoed', async () => {
    const wrong = 'wrong-Key-0123456789';
    const r = await runBin(['stocks', 'get-previous-close', 'SIMA', '--api-key', wrong], {
      MDQ_BASE_URL: server.url,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /status 401; request id [0-9a-f]+/);
    assertNoKey(r, wrong);
  });

  test('an API error: exit 1 with the service message', async () => {
    const r = await runBin(['stocks', 'get-daily-open-close', 'SIMA', '2024-12-25'], env);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /status 404; request id/);
    assertNoKey(r);
  });

  test('a network error: exit 1', async () => {
    const r = await runBin(['stocks', 'get-previous-close', 'SIMA', '--base-url', 'http://127.0.0.1:9'], {
      POLYGON_API_KEY: KEY,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /APIConnectionError|ConnectTimeout|ECONNREFUSED/);
    assertNoKey(r);
  });
});
