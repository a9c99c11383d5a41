// USPS Publication 28 standardisation (server/domain/addresses/address-standardization.ts). Every expected
// string is written out by hand from Pub 28: Appendix B (state abbreviations), Appendix C1 (street
// suffixes), Appendix C2 (secondary unit designators), the directional abbreviations and the
// PO Box, General Delivery, rural route, highway contract and military forms.
import { describe, expect, it } from 'vitest';
import { addressKind, standardizeAddress, stateCode, type StandardizedAddress } from '../server/domain/addresses/index.js';
import type { AddressInput } from '../server/domain/addresses/index.js';

function input(streetAddress1: string, fields: Partial<AddressInput> = {}): AddressInput {
  return { streetAddress1, streetAddress2: null, city: null, province: null, zip: null, countryCode: null, ...fields };
}
const street = (line1: string, line2: string | null = null): { street: string; secondary: string | null } => {
  const { street: primary, secondary } = standardizeAddress(input(line1, { streetAddress2: line2 }));
  return { street: primary, secondary };
};

describe('a whole address', () => {
  it('standardises every field', () => {
    const standard = standardizeAddress({
      streetAddress1: '1600 Amphitheatre Parkway',
      streetAddress2: null,
      city: 'Mountain View',
      province: 'California',
      zip: '94043-1351',
      countryCode: null,
    });
    expect(standard).toEqual<StandardizedAddress>({
      street: '1600 AMPHITHEATRE PKWY',
      secondary: null,
      city: 'MOUNTAIN VIEW',
      state: 'CA',
      zip5: '94043',
      zip4: '1351',
    });
  });

  it('gives two spellings of one address the same standard form', () => {
    const a = standardizeAddress(input('123 north main street, apartment 4b', { city: 'springfield', province: 'Ill.', zip: '62701' }));
    const b = standardizeAddress(input('123 N. Main St.', { streetAddress2: 'Apt #4B', city: 'SPRINGFIELD', province: 'IL', zip: '62701' }));
    expect(a).toEqual(b);
    expect(a).toEqual({ street: '123 N MAIN ST', secondary: 'APT 4B', city: 'SPRINGFIELD', state: 'IL', zip5: '62701', zip4: null });
  });

  it('answers null for the fields not sent', () => {
    expect(standardizeAddress(input('1 Main St'))).toEqual({ street: '1 MAIN ST', secondary: null, city: null, state: null, zip5: null, zip4: null });
  });
});

describe('street suffixes (Pub 28 Appendix C1)', () => {
  it.each([
    ['100 Main Street', '100 MAIN ST'],
    ['100 Main Str', '100 MAIN ST'],
    ['100 Main Strt', '100 MAIN ST'],
    ['100 Main St', '100 MAIN ST'],
    ['100 Oak Avenue', '100 OAK AVE'],
    ['100 Oak Av', '100 OAK AVE'],
    ['100 Oak Aven', '100 OAK AVE'],
    ['100 Oak Avenu', '100 OAK AVE'],
    ['100 Oak Avn', '100 OAK AVE'],
    ['100 Oak Avnue', '100 OAK AVE'],
    ['1600 Amphitheatre Parkway', '1600 AMPHITHEATRE PKWY'],
    ['1600 Amphitheatre Pky', '1600 AMPHITHEATRE PKWY'],
    ['8000 Sunset Boulevard', '8000 SUNSET BLVD'],
    ['8000 Sunset Boul', '8000 SUNSET BLVD'],
    ['8000 Sunset Blv', '8000 SUNSET BLVD'],
    ['12 Mill Road', '12 MILL RD'],
    ['12 Lake View Drive', '12 LAKE VIEW DR'],
    ['12 Lake View Drv', '12 LAKE VIEW DR'],
    ['12 Penny Lane', '12 PENNY LN'],
    ['12 Kings Court', '12 KINGS CT'],
    ['12 Kings Crt', '12 KINGS CT'],
    ['12 Oak Circle', '12 OAK CIR'],
    ['12 Oak Circ', '12 OAK CIR'],
    ['12 Elm Place', '12 ELM PL'],
    ['12 Elm Terrace', '12 ELM TER'],
    ['12 Elm Terr', '12 ELM TER'],
    ['12 Pacific Coast Highway', '12 PACIFIC COAST HWY'],
    ['12 Pacific Coast Hiway', '12 PACIFIC COAST HWY'],
    ['12 Gulf Freeway', '12 GULF FWY'],
    ['12 Dan Ryan Expressway', '12 DAN RYAN EXPY'],
    ['12 Union Square', '12 UNION SQ'],
    ['12 Appalachian Trail', '12 APPALACHIAN TRL'],
    ['12 Abbey Way', '12 ABBEY WAY'],
    ['12 Blind Alley', '12 BLIND ALY'],
    ['12 Town Center', '12 TOWN CTR'],
    ['12 Town Centre', '12 TOWN CTR'],
    ['12 Deer Crossing', '12 DEER XING'],
    ['12 Oak Heights', '12 OAK HTS'],
    ['12 Blue Ridge', '12 BLUE RDG'],
    ['12 Rock Creek', '12 ROCK CRK'],
    ['12 Sleepy Hollow', '12 SLEEPY HOLW'],
    ['12 Pine Meadows', '12 PINE MDWS'],
    ['12 Palm Springs', '12 PALM SPGS'],
    ['12 Green Valley', '12 GREEN VLY'],
    ['12 Olde Village', '12 OLDE VLG'],
    ['12 Buena Vista', '12 BUENA VIS'],
    ['12 Rose Gardens', '12 ROSE GDNS'],
    ['12 Oak Estates', '12 OAK ESTS'],
    ['12 Main Extension', '12 MAIN EXT'],
    ['12 Hunters Crescent', '12 HUNTERS CRES'],
    ['12 Harbor Point', '12 HARBOR PT'],
    ['12 Long Island', '12 LONG IS'],
    ['12 Grand Junction', '12 GRAND JCT'],
    ['12 Jersey Turnpike', '12 JERSEY TPKE'],
    ['12 Lincoln Plaza', '12 LINCOLN PLZ'],
    ['12 Union Station', '12 UNION STA'],
    ['12 Ocean Boulevard', '12 OCEAN BLVD'],
    ['12 Bear Mountain', '12 BEAR MTN'],
    ['12 Shady Cove', '12 SHADY CV'],
    ['12 Harbor Landing', '12 HARBOR LNDG'],
    ['12 River Walk', '12 RIVER WALK'],
    ['12 Oak Loop', '12 OAK LOOP'],
  ])('%s -> %s', (sent, expected) => {
    expect(street(sent)).toEqual({ street: expected, secondary: null });
  });

  it('abbreviates only the last word: a suffix word inside the name stays', () => {
    expect(street('12 Park Place').street).toBe('12 PARK PL');
    expect(street('12 Lake Shore Drive').street).toBe('12 LAKE SHORE DR');
    expect(street('12 Court Street').street).toBe('12 COURT ST');
  });

  it('leaves a name that is a suffix word followed by another word, or no suffix at all', () => {
    expect(street('1 Avenue B').street).toBe('1 AVENUE B');
    expect(street('1 Avenue of the Americas').street).toBe('1 AVENUE OF THE AMERICAS');
    expect(street('1 Broadway').street).toBe('1 BROADWAY');
  });
});

describe('directionals', () => {
  it.each([
    ['123 North Main Street', '123 N MAIN ST'],
    ['123 South Main Street', '123 S MAIN ST'],
    ['123 East Main Street', '123 E MAIN ST'],
    ['123 West Main Street', '123 W MAIN ST'],
    ['123 Main Street Southwest', '123 MAIN ST SW'],
    ['123 Main Street Northeast', '123 MAIN ST NE'],
    ['123 N Main St SW', '123 N MAIN ST SW'],
    ['123 N. Main St. S.W.', '123 N MAIN ST SW'],
    ['500 Northwest Evergreen Street', '500 NW EVERGREEN ST'],
    ['500 Southeast Division Street', '500 SE DIVISION ST'],
    ['123 Park Ave South', '123 PARK AVE S'],
    ['123 N.W. 5th Ave', '123 NW 5TH AVE'],
  ])('%s -> %s', (sent, expected) => {
    expect(street(sent).street).toBe(expected);
  });

  it('keeps a directional that is the street name spelled as sent', () => {
    expect(street('123 North Street').street).toBe('123 NORTH ST');
    expect(street('1 West Avenue').street).toBe('1 WEST AVE');
    expect(street('100 N Street NW').street).toBe('100 N ST NW');
    expect(street('9 South Blvd').street).toBe('9 SOUTH BLVD');
  });
});

describe('secondary units (Pub 28 Appendix C2)', () => {
  it.each([
    ['Apartment 4b', 'APT 4B'],
    ['Apt. 4B', 'APT 4B'],
    ['Apt #4B', 'APT 4B'],
    ['Suite 100', 'STE 100'],
    ['Ste. 100', 'STE 100'],
    ['Unit B', 'UNIT B'],
    ['Building 5', 'BLDG 5'],
    ['Bldg 5', 'BLDG 5'],
    ['Floor 3', 'FL 3'],
    ['3rd Floor', 'FL 3'],
    ['Room 210', 'RM 210'],
    ['Department 12', 'DEPT 12'],
    ['Lot 12', 'LOT 12'],
    ['Space 3', 'SPC 3'],
    ['Trailer 7', 'TRLR 7'],
    ['Hangar 2', 'HNGR 2'],
    ['Slip 4', 'SLIP 4'],
    ['Pier 3', 'PIER 3'],
    ['Stop 9', 'STOP 9'],
    ['Key 12', 'KEY 12'],
    ['Penthouse', 'PH'],
    ['Basement', 'BSMT'],
    ['Lobby', 'LBBY'],
    ['Office', 'OFC'],
    ['Front', 'FRNT'],
    ['Rear', 'REAR'],
    ['Side', 'SIDE'],
    ['Upper', 'UPPR'],
    ['Lower', 'LOWR'],
    ['#5', '# 5'],
    ['# 5', '# 5'],
    ['4B', '# 4B'],
    ['Apt. 4-B', 'APT 4-B'],
    ['Building 2, Room 210', 'BLDG 2 RM 210'],
  ])('street_address2 %s -> %s', (sent, expected) => {
    expect(street('123 Main St', sent)).toEqual({ street: '123 MAIN ST', secondary: expected });
  });

  it.each([
    ['123 Main St Apt 4', 'APT 4'],
    ['123 Main St, Apt. 4', 'APT 4'],
    ['123 Main Street Suite 100', 'STE 100'],
    ['123 Main St #5', '# 5'],
    ['123 Main St 2nd Floor', 'FL 2'],
    ['123 Main St Rear', 'REAR'],
    ['123 Main St Bldg 5 Rm 210', 'BLDG 5 RM 210'],
    ['123 N Main St SW Unit 7', 'UNIT 7'],
  ])('a unit at the end of street_address1 moves to secondary: %s', (sent, expected) => {
    expect(street(sent)).toEqual({ street: sent.startsWith('123 N') ? '123 N MAIN ST SW' : '123 MAIN ST', secondary: expected });
  });

  it('joins a unit from street_address1 with street_address2, once', () => {
    expect(street('123 Main St Bldg 2', 'Rm 210')).toEqual({ street: '123 MAIN ST', secondary: 'BLDG 2 RM 210' });
    expect(street('123 Main St Apt 4', 'Apt. 4')).toEqual({ street: '123 MAIN ST', secondary: 'APT 4' });
  });

  it('does not read a street name as a unit', () => {
    expect(street('123 Ocean Front')).toEqual({ street: '123 OCEAN FRONT', secondary: null });
    expect(street('1 Key West Ave')).toEqual({ street: '1 KEY WEST AVE', secondary: null });
    expect(street('1 Front St')).toEqual({ street: '1 FRONT ST', secondary: null });
  });

  it('takes the street from street_address2 when street_address1 is a firm line or a unit', () => {
    expect(street('Acme Corp', '123 Main St')).toEqual({ street: '123 MAIN ST', secondary: null });
    expect(street('Apt 4', '123 Main St')).toEqual({ street: '123 MAIN ST', secondary: 'APT 4' });
    expect(street('Attn: Receiving', 'PO Box 12')).toEqual({ street: 'PO BOX 12', secondary: null });
  });
});

describe('PO Box, General Delivery, rural routes and military', () => {
  it.each([
    ['PO Box 12', 'PO BOX 12'],
    ['P.O. Box 12', 'PO BOX 12'],
    ['P. O. Box 12', 'PO BOX 12'],
    ['p o box 12', 'PO BOX 12'],
    ['Post Office Box 12', 'PO BOX 12'],
    ['POB 12', 'PO BOX 12'],
    ['PO Box #12', 'PO BOX 12'],
    ['POBox 12', 'PO BOX 12'],
  ])('%s -> %s', (sent, expected) => {
    const standard = standardizeAddress(input(sent));
    expect(standard.street).toBe(expected);
    expect(addressKind(standard)).toBe('po_box');
  });

  it('writes General Delivery in full', () => {
    const standard = standardizeAddress(input('General Delivery'));
    expect(standard.street).toBe('GENERAL DELIVERY');
    expect(addressKind(standard)).toBe('general_delivery');
    expect(standardizeAddress(input('general   delivery')).street).toBe('GENERAL DELIVERY');
  });

  it.each([
    ['PSC 1234, Box 5678', 'PSC 1234 BOX 5678'],
    ['psc 1234 box #5678', 'PSC 1234 BOX 5678'],
    ['Unit 2050 Box 4190', 'UNIT 2050 BOX 4190'],
    ['CMR 480, Box 123', 'CMR 480 BOX 123'],
  ])('military %s -> %s', (sent, expected) => {
    const standard = standardizeAddress(input(sent, { city: 'APO', province: 'AE', zip: '09021' }));
    expect(standard.street).toBe(expected);
    expect(addressKind(standard)).toBe('military');
  });

  it('calls an address with a military state military whatever its street line', () => {
    expect(addressKind(standardizeAddress(input('USS Ronald Reagan', { province: 'AP', zip: '96616' })))).toBe('military');
    expect(addressKind(standardizeAddress(input('1 Main St', { province: 'CA' })))).toBe('street');
  });

  it.each([
    ['Rural Route 2 Box 152', 'RR 2 BOX 152'],
    ['R.R. 2 Box 152', 'RR 2 BOX 152'],
    ['RR 2, Box 152', 'RR 2 BOX 152'],
    ['RFD 2 Box 152', 'RR 2 BOX 152'],
    ['HC 68 Box 23A', 'HC 68 BOX 23A'],
    ['Highway Contract 68 Box 23A', 'HC 68 BOX 23A'],
    ['Star Route 68 Box 23A', 'HC 68 BOX 23A'],
  ])('rural route %s -> %s', (sent, expected) => {
    const standard = standardizeAddress(input(sent));
    expect(standard.street).toBe(expected);
    expect(addressKind(standard)).toBe('street');
  });

  it('writes numbered highways out', () => {
    expect(street('123 Hwy 101').street).toBe('123 HIGHWAY 101');
    expect(street('123 Co Rd 5').street).toBe('123 COUNTY ROAD 5');
    expect(street('123 County Road 5').street).toBe('123 COUNTY ROAD 5');
    expect(street('123 US Hwy 1 N').street).toBe('123 US HIGHWAY 1 N');
    expect(street('123 State Rte 9').street).toBe('123 STATE ROUTE 9');
  });
});

describe('punctuation, numbers and spaces', () => {
  it('keeps the hyphen of a house number and the slash of a fraction', () => {
    expect(street('12-34 Main St').street).toBe('12-34 MAIN ST');
    expect(street('123 1/2 Main St').street).toBe('123 1/2 MAIN ST');
  });

  it('drops other punctuation and collapses spaces', () => {
    expect(street('  123   main   st., ').street).toBe('123 MAIN ST');
    expect(street('123 Wilkes-Barre Blvd').street).toBe('123 WILKES BARRE BLVD');
    expect(street("12 St. Mary's Rd.").street).toBe('12 ST MARYS RD');
  });

  it('keeps a house number written as a word as sent', () => {
    expect(street('One Microsoft Way').street).toBe('ONE MICROSOFT WAY');
  });

  it('keeps an unknown line, cleaned, rather than dropping it', () => {
    expect(street('Main St', 'Leave at back door')).toEqual({ street: 'MAIN ST', secondary: 'LEAVE AT BACK DOOR' });
  });
});

describe('city', () => {
  it.each([
    ['Mountain View', 'MOUNTAIN VIEW'],
    ['  mountain   view ', 'MOUNTAIN VIEW'],
    ['St. Louis', 'ST LOUIS'],
    ['Winston-Salem', 'WINSTON SALEM'],
    ["O'Fallon", 'O FALLON'],
    ["Coeur d'Alene", 'COEUR D ALENE'],
    ["Lee's Summit", 'LEES SUMMIT'],
    ['Peñasco', 'PENASCO'],
  ])('%s -> %s', (sent, expected) => {
    expect(standardizeAddress(input('1 Main St', { city: sent })).city).toBe(expected);
  });

  it('is null when not sent or blank', () => {
    expect(standardizeAddress(input('1 Main St', { city: null })).city).toBeNull();
    expect(standardizeAddress(input('1 Main St', { city: ' . ' })).city).toBeNull();
  });
});

describe('ZIP code', () => {
  it.each([
    ['94043-1351', '94043', '1351'],
    ['940431351', '94043', '1351'],
    ['94043 1351', '94043', '1351'],
    ['94043', '94043', null],
    [' 09021 ', '09021', null],
  ])('%s -> %s + %s', (sent, zip5, zip4) => {
    const standard = standardizeAddress(input('1 Main St', { zip: sent }));
    expect([standard.zip5, standard.zip4]).toEqual([zip5, zip4]);
  });

  it.each(['9404', '940431', '94043-13', 'ABCDE', '94043-', '2101'])('%s is not a ZIP: both null', (sent) => {
    const standard = standardizeAddress(input('1 Main St', { zip: sent }));
    expect([standard.zip5, standard.zip4]).toEqual([null, null]);
  });
});

describe('stateCode (Pub 28 Appendix B)', () => {
  const FIFTY_STATES: Array<[string, string]> = [
    ['Alabama', 'AL'], ['Alaska', 'AK'], ['Arizona', 'AZ'], ['Arkansas', 'AR'], ['California', 'CA'],
    ['Colorado', 'CO'], ['Connecticut', 'CT'], ['Delaware', 'DE'], ['Florida', 'FL'], ['Georgia', 'GA'],
    ['Hawaii', 'HI'], ['Idaho', 'ID'], ['Illinois', 'IL'], ['Indiana', 'IN'], ['Iowa', 'IA'],
    ['Kansas', 'KS'], ['Kentucky', 'KY'], ['Louisiana', 'LA'], ['Maine', 'ME'], ['Maryland', 'MD'],
    ['Massachusetts', 'MA'], ['Michigan', 'MI'], ['Minnesota', 'MN'], ['Mississippi', 'MS'], ['Missouri', 'MO'],
    ['Montana', 'MT'], ['Nebraska', 'NE'], ['Nevada', 'NV'], ['New Hampshire', 'NH'], ['New Jersey', 'NJ'],
    ['New Mexico', 'NM'], ['New York', 'NY'], ['North Carolina', 'NC'], ['North Dakota', 'ND'], ['Ohio', 'OH'],
    ['Oklahoma', 'OK'], ['Oregon', 'OR'], ['Pennsylvania', 'PA'], ['Rhode Island', 'RI'], ['South Carolina', 'SC'],
    ['South Dakota', 'SD'], ['Tennessee', 'TN'], ['Texas', 'TX'], ['Utah', 'UT'], ['Vermont', 'VT'],
    ['Virginia', 'VA'], ['Washington', 'WA'], ['West Virginia', 'WV'], ['Wisconsin', 'WI'], ['Wyoming', 'WY'],
  ];

  it.each(FIFTY_STATES)('%s -> %s, and its code in any case', (name, code) => {
    expect(stateCode(name)).toBe(code);
    expect(stateCode(name.toUpperCase())).toBe(code);
    expect(stateCode(code)).toBe(code);
    expect(stateCode(code.toLowerCase())).toBe(code);
  });

  it.each([
    ['District of Columbia', 'DC'],
    ['D.C.', 'DC'],
    ['Washington, D.C.', 'DC'],
    ['Puerto Rico', 'PR'],
    ['Virgin Islands', 'VI'],
    ['U.S. Virgin Islands', 'VI'],
    ['Guam', 'GU'],
    ['American Samoa', 'AS'],
    ['Northern Mariana Islands', 'MP'],
    ['Armed Forces Americas', 'AA'],
    ['Armed Forces Europe', 'AE'],
    ['Armed Forces Pacific', 'AP'],
    ['ae', 'AE'],
    ['Calif.', 'CA'],
    ['N.Y.', 'NY'],
    ['N. Y.', 'NY'],
    ['Mass.', 'MA'],
    ['Tex.', 'TX'],
    ['W. Va.', 'WV'],
    ['  texas ', 'TX'],
  ])('%s -> %s', (sent, code) => {
    expect(stateCode(sent)).toBe(code);
  });

  it.each(['Ontario', 'XX', 'Narnia', '', 'New', 'ZZ'])('%s names no state: null', (sent) => {
    expect(stateCode(sent)).toBeNull();
  });

  it('standardizeAddress answers null for an unknown or absent province', () => {
    expect(standardizeAddress(input('1 Main St', { province: 'Ontario' })).state).toBeNull();
    expect(standardizeAddress(input('1 Main St', { province: null })).state).toBeNull();
  });
});

describe('standard form in, same standard form out', () => {
  // The USPS adapter standardises both what was sent and what USPS answered and compares them, so
  // an address already in standard form must come back unchanged.
  it.each([
    ['1600 AMPHITHEATRE PKWY', null],
    ['123 N MAIN ST SW', 'APT 4B'],
    ['100 N ST NW', null],
    ['123 NORTH ST', '# 5'],
    ['123 MAIN ST', 'FL 2'],
    ['123 MAIN ST', 'BLDG 5 RM 210'],
    ['123 MAIN ST', 'PH'],
    ['1 AVENUE B', null],
    ['123 1/2 MAIN ST', null],
    ['12-34 MAIN ST', 'APT 4-B'],
    ['PO BOX 12', null],
    ['GENERAL DELIVERY', null],
    ['PSC 1234 BOX 5678', null],
    ['UNIT 2050 BOX 4190', null],
    ['CMR 480 BOX 123', null],
    ['RR 2 BOX 152', null],
    ['HC 68 BOX 23A', null],
    ['123 HIGHWAY 101', null],
    ['123 COUNTY ROAD 5', null],
    ['123 US HIGHWAY 1 N', null],
    ['ONE MICROSOFT WAY', null],
  ])('%s / %s', (line1, line2) => {
    const once = standardizeAddress(input(line1, { streetAddress2: line2, city: 'COEUR D ALENE', province: 'ID', zip: '83814-1234' }));
    expect(once).toEqual({ street: line1, secondary: line2, city: 'COEUR D ALENE', state: 'ID', zip5: '83814', zip4: '1234' });
    const twice = standardizeAddress(
      input(once.street, { streetAddress2: once.secondary, city: once.city, province: once.state, zip: `${once.zip5}-${once.zip4}` }),
    );
    expect(twice).toEqual(once);
  });
});
