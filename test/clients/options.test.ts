import { OptionsClient } from '../../src/index.js';
import { optionsCases } from '../support/cases/options.js';
import { describeOperations } from '../support/client-cases.js';

describeOperations(
  'Options client: every operation over loopback HTTP',
  OptionsClient as never,
  'test-key-options-1',
  optionsCases,
);
