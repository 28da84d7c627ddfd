/**
 * The futures exchanges the server lists at `/futures/v1/exchanges` (and `vX`): the four designated
 * contract markets of CME Group, on whose Globex platform ES (CME) and GC (COMEX) trade. MICs are those
 * of ISO 10383, where CME Group's markets are segments of the operating MIC `XCME`. CME's id `4` is the
 * one the service's own example gives; the other ids are this server's numbering.
 */
export const FUTURES_EXCHANGES: readonly Readonly<Record<string, string>>[] = [
  {
    acronym: 'CME',
    id: '4',
    locale: 'US',
    mic: 'XCME',
    name: 'Chicago Mercantile Exchange',
    operating_mic: 'XCME',
    type: 'exchange',
    url: 'https://cmegroup.com',
  },
  {
    acronym: 'CBOT',
    id: '5',
    locale: 'US',
    mic: 'XCBT',
    name: 'Chicago Board of Trade',
    operating_mic: 'XCME',
    type: 'exchange',
    url: 'https://cmegroup.com',
  },
  {
    acronym: 'NYMEX',
    id: '6',
    locale: 'US',
    mic: 'XNYM',
    name: 'New York Mercantile Exchange',
    operating_mic: 'XCME',
    type: 'exchange',
    url: 'https://cmegroup.com',
  },
  {
    acronym: 'COMEX',
    id: '7',
    locale: 'US',
    mic: 'XCEC',
    name: 'Commodity Exchange',
    operating_mic: 'XCME',
    type: 'exchange',
    url: 'https://cmegroup.com',
  },
];
