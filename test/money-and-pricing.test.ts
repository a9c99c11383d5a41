// Unit tests of the money encodings and the premium arithmetic. Every expected value is worked out
// by hand in the comment beside it.
import { describe, expect, it } from 'vitest';
import { centsToMajorNumber, centsToMajorString, QuoteAmount, RestAmount } from '../contract/money.js';
import { ledgerTotals, repricingAmountCents } from '../server/domain/billing/index.js';
import { cartMatchesQuote, coveredAmountCents, priceCoverage, type PricingTerms, ratePremiumCents } from '../server/domain/quotes/index.js';


const terms = (rateBps: number, minPremiumCents = 0, maxCoveredCents: number | null = null): PricingTerms => ({
  rateBps,
  minPremiumCents,
  maxCoveredCents,
});

describe('quote amounts (strings of major units)', () => {
  it.each([
    ['0', 0],
    ['0.5', 50],
    ['0.05', 5],
    ['125', 12_500],
    ['125.10', 12_510],
    ['9999999999.99', 999_999_999_999],
  ])('%s is %i cents', (text, cents) => {
    expect(QuoteAmount.parse(text)).toBe(cents);
  });

  it.each(['1.234', '-1', '1e3', ' 1', '1.', '.5', '12345678901', '1,00', ''])('rejects %j', (text) => {
    expect(QuoteAmount.safeParse(text).success).toBe(false);
  });

  it('rejects a number where a string is required', () => {
    expect(QuoteAmount.safeParse(125).success).toBe(false);
  });
});

describe('REST amounts (JSON numbers, at most two decimals)', () => {
  it.each([
    [0, 0],
    [0.1, 10],
    [0.29, 29], // 0.29 * 100 is 28.999999999999996 in floating point; the text route gives 29
    [19.99, 1999],
    [125, 12_500],
    [9_999_999_999.99, 999_999_999_999],
  ])('%d is %i cents', (value, cents) => {
    expect(RestAmount.parse(value)).toBe(cents);
  });

  it.each([1.234, 0.001, 1e-7, -0.01, 10_000_000_000, 0.1 + 0.2])('rejects %d (never rounds)', (value) => {
    expect(RestAmount.safeParse(value).success).toBe(false);
  });

  it.each(['12.50', null, true])('rejects the non-number %j', (value) => {
    expect(RestAmount.safeParse(value).success).toBe(false);
  });
});

describe('formatting cents', () => {
  it('writes quote strings with two decimals', () => {
    expect(centsToMajorString(0)).toBe('0.00');
    expect(centsToMajorString(5)).toBe('0.05');
    expect(centsToMajorString(188)).toBe('1.88');
    expect(centsToMajorString(999_999_999_999)).toBe('9999999999.99');
    expect(centsToMajorString(-250)).toBe('-2.50');
  });

  it('writes REST numbers that print as the decimal', () => {
    expect(JSON.stringify(centsToMajorNumber(1999))).toBe('19.99');
    expect(JSON.stringify(centsToMajorNumber(29))).toBe('0.29');
    expect(JSON.stringify(centsToMajorNumber(12_500))).toBe('125');
  });
});

describe('premium = max(min_premium, round_half_up(covered x rate))', () => {
  it('rounds exactly half a cent up', () => {
    // 125.00 x 1.5 % = 1.875 -> 1.88
    expect(ratePremiumCents(12_500, terms(150))).toBe(188);
    // 0.50 x 1 % = 0.005 -> 0.01
    expect(ratePremiumCents(50, terms(100))).toBe(1);
  });

  it('rounds just below half a cent down', () => {
    // 124.96 x 1.5 % = 1.8744 -> 1.87
    expect(ratePremiumCents(12_496, terms(150))).toBe(187);
    // 0.49 x 1 % = 0.0049 -> 0.00
    expect(ratePremiumCents(49, terms(100))).toBe(0);
  });

  it('applies the minimum premium, but not to an empty cart', () => {
    // 10.00 x 1.5 % = 0.15, below the 0.98 minimum
    expect(ratePremiumCents(1_000, terms(150, 98))).toBe(98);
    // 100.00 x 1.5 % = 1.50, above the minimum
    expect(ratePremiumCents(10_000, terms(150, 98))).toBe(150);
    expect(ratePremiumCents(0, terms(150, 98))).toBe(0);
  });

  it('caps the covered amount at the store maximum before pricing', () => {
    // 8000.00 capped at 5000.00; 5000.00 x 1.5 % = 75.00
    expect(coveredAmountCents(800_000, terms(150, 0, 500_000))).toBe(500_000);
    expect(priceCoverage(800_000, terms(150, 0, 500_000))).toEqual({ coveredCents: 500_000, premiumCents: 7_500 });
    expect(priceCoverage(400_000, terms(150, 0, 500_000))).toEqual({ coveredCents: 400_000, premiumCents: 6_000 });
  });

  it('stays exact where cents x basis points passes 2^53', () => {
    // 9,999,999,999.99 x 99.99 % = 9,998,999,999.999... (999_999_999_999 * 9_999 = 9_998_999_999_990_001,
    // / 10_000 = 999_899_999_999.0001 cents) -> 999_899_999_999 cents
    expect(ratePremiumCents(999_999_999_999, terms(9_999))).toBe(999_899_999_999);
  });
});

describe('the cart-swap tolerance: max(1 USD, 1 %)', () => {
  it('accepts up to 1 USD either way on a small cart', () => {
    expect(cartMatchesQuote(5_000, 5_100)).toBe(true);
    expect(cartMatchesQuote(5_000, 4_900)).toBe(true);
    expect(cartMatchesQuote(5_000, 5_101)).toBe(false);
    expect(cartMatchesQuote(5_000, 4_899)).toBe(false);
  });

  it('accepts up to 1 % on a large cart', () => {
    // 1 % of 500.00 is 5.00
    expect(cartMatchesQuote(50_000, 50_500)).toBe(true);
    expect(cartMatchesQuote(50_000, 50_501)).toBe(false);
    expect(cartMatchesQuote(50_000, 49_500)).toBe(true);
    expect(cartMatchesQuote(50_000, 49_499)).toBe(false);
  });
});

describe('the ledger', () => {
  it('derives charged, reversed and net from the entries', () => {
    const totals = ledgerTotals([
      { amountCents: 300, reason: 'booking' },
      { amountCents: 150, reason: 'repricing' },
      { amountCents: -100, reason: 'reversal' },
    ]);
    expect(totals).toEqual({ chargedCents: 450, reversedCents: 100, netCents: 350 });
  });

  it('re-prices by the difference to the charged premium, keeping reversals', () => {
    const totals = ledgerTotals([
      { amountCents: 300, reason: 'booking' },
      { amountCents: -100, reason: 'reversal' },
    ]);
    expect(repricingAmountCents(totals, 500)).toBe(200); // charged 300 -> 500, net 400
    expect(repricingAmountCents(totals, 300)).toBe(0);
  });

  it('never takes the net premium below zero', () => {
    // charged 300, reversed 300: nothing is left to take back
    const fullyReversed = ledgerTotals([
      { amountCents: 300, reason: 'booking' },
      { amountCents: -300, reason: 'reversal' },
    ]);
    expect(repricingAmountCents(fullyReversed, 0)).toBe(0);
    // charged 300, reversed 100, target 100: only the 200 still held can go
    const partly = ledgerTotals([
      { amountCents: 300, reason: 'booking' },
      { amountCents: -100, reason: 'reversal' },
    ]);
    expect(repricingAmountCents(partly, 100)).toBe(-200);
  });
});
