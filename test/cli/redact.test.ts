import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { CliContext } from '../../src/cli/context.js';

function context(apiKey: string, env: NodeJS.ProcessEnv = {}): { cli: CliContext; stdout: () => string } {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const cli = new CliContext(
    { stdout, stderr: new PassThrough(), env },
    { quiet: false, apiKey, output: 'json' },
  );
  return { cli, stdout: () => Buffer.concat(chunks).toString('utf8') };
}

test('the key is hidden as a whole token; words that contain it keep their letters', () => {
  const { cli } = context('test');
  assert.equal(cli.redact('latest test results, tested: test'), 'latest *** results, tested: ***');
  assert.equal(cli.redact('GET /x?apiKey=test&limit=1'), 'GET /x?apiKey=***&limit=1');
  const fromEnv = context('news', { MASSIVE_API_KEY: 'data' }).cli;
  assert.equal(
    fromEnv.redact('news of the day: newsletter, data, metadata'),
    '*** of the day: newsletter, ***, metadata',
  );
});

test('standard output goes through the same masking', () => {
  const { cli, stdout } = context('Open');
  cli.out('Open: 1, Opening: 2\n');
  assert.equal(stdout(), '***: 1, Opening: 2\n');
});
