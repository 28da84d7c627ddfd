import { CryptoClient } from '../../src/index.js';
import { cryptoCases } from '../support/cases/crypto.js';
import { describeOperations } from '../support/client-cases.js';

describeOperations(
  'Crypto client: every operation over loopback HTTP',
  CryptoClient as never,
  'test-key-crypto-1',
  cryptoCases,
);
