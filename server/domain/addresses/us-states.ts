// The US states, the District of Columbia, the territories, the freely associated states and the
// military "states" (AA, AE, AP) with their two-letter codes: data only, the one table of them in
// the service. The codes are those of USPS Publication 28 ("Postal Addressing Standards"),
// Appendix B; the names and older abbreviations are the spellings people send. Read through
// stateCode in ./address-standardization.ts, which the standardiser and every verifier (offline,
// USPS, Smarty) use, so each accepts the same spellings.

/**
 * Pub 28 Appendix B, State and possession abbreviations: each two-letter code with the names and
 * older abbreviations people send, in upper case, words separated by single spaces, no punctuation
 * (the lookup cleans what was sent to that form first, so "Calif." and "calif" are both CALIF).
 */
export const US_STATES: Readonly<Record<string, readonly string[]>> = {
  AL: ['ALABAMA', 'ALA'],
  AK: ['ALASKA', 'ALAS'],
  AZ: ['ARIZONA', 'ARIZ'],
  AR: ['ARKANSAS', 'ARK'],
  CA: ['CALIFORNIA', 'CALIF', 'CAL'],
  CO: ['COLORADO', 'COLO'],
  CT: ['CONNECTICUT', 'CONN'],
  DE: ['DELAWARE', 'DEL'],
  DC: ['DISTRICT OF COLUMBIA', 'WASHINGTON DC', 'WASH DC'],
  FL: ['FLORIDA', 'FLA'],
  GA: ['GEORGIA'],
  HI: ['HAWAII'],
  ID: ['IDAHO', 'IDA'],
  IL: ['ILLINOIS', 'ILL'],
  IN: ['INDIANA', 'IND'],
  IA: ['IOWA'],
  KS: ['KANSAS', 'KANS', 'KAN'],
  KY: ['KENTUCKY'],
  LA: ['LOUISIANA'],
  ME: ['MAINE'],
  MD: ['MARYLAND'],
  MA: ['MASSACHUSETTS', 'MASS'],
  MI: ['MICHIGAN', 'MICH'],
  MN: ['MINNESOTA', 'MINN'],
  MS: ['MISSISSIPPI', 'MISS'],
  MO: ['MISSOURI'],
  MT: ['MONTANA', 'MONT'],
  NE: ['NEBRASKA', 'NEBR', 'NEB'],
  NV: ['NEVADA', 'NEV'],
  NH: ['NEW HAMPSHIRE'],
  NJ: ['NEW JERSEY'],
  NM: ['NEW MEXICO', 'N MEX'],
  NY: ['NEW YORK'],
  NC: ['NORTH CAROLINA', 'N CAROLINA'],
  ND: ['NORTH DAKOTA', 'N DAKOTA', 'N DAK'],
  OH: ['OHIO'],
  OK: ['OKLAHOMA', 'OKLA'],
  OR: ['OREGON', 'OREG', 'ORE'],
  PA: ['PENNSYLVANIA', 'PENNA', 'PENN'],
  RI: ['RHODE ISLAND'],
  SC: ['SOUTH CAROLINA', 'S CAROLINA'],
  SD: ['SOUTH DAKOTA', 'S DAKOTA', 'S DAK'],
  TN: ['TENNESSEE', 'TENN'],
  TX: ['TEXAS', 'TEX'],
  UT: ['UTAH'],
  VT: ['VERMONT'],
  VA: ['VIRGINIA'],
  WA: ['WASHINGTON', 'WASH'],
  WV: ['WEST VIRGINIA', 'W VIRGINIA', 'W VA'],
  WI: ['WISCONSIN', 'WISC', 'WIS'],
  WY: ['WYOMING', 'WYO'],
  AS: ['AMERICAN SAMOA'],
  GU: ['GUAM'],
  MP: ['NORTHERN MARIANA ISLANDS', 'NORTHERN MARIANAS', 'COMMONWEALTH OF THE NORTHERN MARIANA ISLANDS'],
  PR: ['PUERTO RICO'],
  VI: ['VIRGIN ISLANDS', 'US VIRGIN ISLANDS', 'UNITED STATES VIRGIN ISLANDS', 'VIRGIN ISLANDS OF THE UNITED STATES'],
  // The freely associated states also take US mail with these Appendix B codes.
  FM: ['FEDERATED STATES OF MICRONESIA', 'MICRONESIA'],
  MH: ['MARSHALL ISLANDS'],
  PW: ['PALAU'],
  AA: ['ARMED FORCES AMERICAS', 'ARMED FORCES AMERICA'],
  AE: [
    'ARMED FORCES EUROPE',
    'ARMED FORCES AFRICA',
    'ARMED FORCES CANADA',
    'ARMED FORCES MIDDLE EAST',
    'ARMED FORCES AFRICA CANADA EUROPE MIDDLE EAST',
    'ARMED FORCES EUROPE MIDDLE EAST AND CANADA',
  ],
  AP: ['ARMED FORCES PACIFIC'],
};

/**
 * The military "states" of Pub 28 (APO, FPO and DPO mail): Armed Forces Americas, Europe (with
 * Africa, Canada and the Middle East) and Pacific.
 */
export const MILITARY_STATES: ReadonlySet<string> = new Set(['AA', 'AE', 'AP']);

/** Every code and every name in US_STATES, to its code. */
export const STATE_CODE_BY_NAME: ReadonlyMap<string, string> = new Map(
  Object.entries(US_STATES).flatMap(([code, names]) => [[code, code] as const, ...names.map((name) => [name, code] as const)]),
);
