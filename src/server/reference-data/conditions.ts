/** One condition of `/v3/reference/conditions`, in the service's shape. */
export interface Condition {
  id: number;
  type: string;
  name: string;
  asset_class: string;
  sip_mapping: Record<string, string>;
  data_types: string[];
  legacy?: boolean;
}

/**
 * Trade conditions at `/v3/reference/conditions`: ids 1–10 exactly as the service's recorded response
 * lists them, and the further ids the ingested trades carry (see `ingest/lean-codes.ts`) with the
 * service's names; their `sip_mapping` holds the CTA/UTP codes of the SIP specifications where the
 * mapping is unambiguous, else is empty.
 */
export const CONDITIONS: readonly Condition[] = [
  {
    id: 1,
    type: 'sale_condition',
    name: 'Acquisition',
    asset_class: 'stocks',
    sip_mapping: { UTP: 'A' },
    data_types: ['trade'],
  },
  {
    id: 2,
    type: 'sale_condition',
    name: 'Average Price Trade',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'B', UTP: 'W' },
    data_types: ['trade'],
  },
  {
    id: 3,
    type: 'sale_condition',
    name: 'Automatic Execution',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'E' },
    data_types: ['trade'],
  },
  {
    id: 4,
    type: 'sale_condition',
    name: 'Bunched Trade',
    asset_class: 'stocks',
    sip_mapping: { UTP: 'B' },
    data_types: ['trade'],
  },
  {
    id: 5,
    type: 'sale_condition',
    name: 'Bunched Sold Trade',
    asset_class: 'stocks',
    sip_mapping: { UTP: 'G' },
    data_types: ['trade'],
  },
  {
    id: 6,
    type: 'sale_condition',
    name: 'CAP Election',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'I' },
    data_types: ['trade'],
    legacy: true,
  },
  {
    id: 7,
    type: 'sale_condition',
    name: 'Cash Sale',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'C', UTP: 'C' },
    data_types: ['trade'],
  },
  {
    id: 8,
    type: 'sale_condition',
    name: 'Closing Prints',
    asset_class: 'stocks',
    sip_mapping: { UTP: '6' },
    data_types: ['trade'],
  },
  {
    id: 9,
    type: 'sale_condition',
    name: 'Cross Trade',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'X', UTP: 'X' },
    data_types: ['trade'],
  },
  {
    id: 10,
    type: 'sale_condition',
    name: 'Derivatively Priced',
    asset_class: 'stocks',
    sip_mapping: { CTA: '4', UTP: '4' },
    data_types: ['trade'],
  },
  {
    id: 12,
    type: 'sale_condition',
    name: 'Form T',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'T', UTP: 'T' },
    data_types: ['trade'],
  },
  {
    id: 14,
    type: 'sale_condition',
    name: 'Intermarket Sweep',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'F', UTP: 'F' },
    data_types: ['trade'],
  },
  {
    id: 15,
    type: 'sale_condition',
    name: 'Market Center Official Close',
    asset_class: 'stocks',
    sip_mapping: { UTP: 'M' },
    data_types: ['trade'],
  },
  {
    id: 16,
    type: 'sale_condition',
    name: 'Market Center Official Open',
    asset_class: 'stocks',
    sip_mapping: { UTP: 'Q' },
    data_types: ['trade'],
  },
  {
    id: 20,
    type: 'sale_condition',
    name: 'Next Day',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'N', UTP: 'N' },
    data_types: ['trade'],
  },
  {
    id: 25,
    type: 'sale_condition',
    name: 'Opening Prints',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'O' },
    data_types: ['trade'],
  },
  {
    id: 27,
    type: 'sale_condition',
    name: 'Stopped Stock (Regular Trade)',
    asset_class: 'stocks',
    sip_mapping: {},
    data_types: ['trade'],
  },
  {
    id: 28,
    type: 'sale_condition',
    name: 'Re-Opening Prints',
    asset_class: 'stocks',
    sip_mapping: {},
    data_types: ['trade'],
  },
  {
    id: 29,
    type: 'sale_condition',
    name: 'Seller',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'R', UTP: 'R' },
    data_types: ['trade'],
  },
  {
    id: 30,
    type: 'sale_condition',
    name: 'Sold Last',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'L', UTP: 'L' },
    data_types: ['trade'],
  },
  {
    id: 32,
    type: 'sale_condition',
    name: 'Sold (Out of Sequence)',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'Z', UTP: 'Z' },
    data_types: ['trade'],
  },
  {
    id: 36,
    type: 'sale_condition',
    name: 'Yellow Flag Regular Trade',
    asset_class: 'stocks',
    sip_mapping: {},
    data_types: ['trade'],
  },
  {
    id: 37,
    type: 'sale_condition',
    name: 'Odd Lot Trade',
    asset_class: 'stocks',
    sip_mapping: { CTA: 'I', UTP: 'I' },
    data_types: ['trade'],
  },
  {
    id: 41,
    type: 'sale_condition',
    name: 'Trade Thru Exempt',
    asset_class: 'stocks',
    sip_mapping: {},
    data_types: ['trade'],
  },
];
