// What a claim is worth: the units it claims times their unit price, or, for a whole-order claim,
// every covered line (a line the store marked uninsured is not covered). In integer cents.
export interface PricedLine {
  sourceId: string;
  priceCents: bigint | number;
  quantity: number;
  isInsured: boolean | null;
}

export function amountClaimedCents(lines: readonly PricedLine[], items: ReadonlyArray<{ source_id: string; quantity: number }>): number {
  if (items.length === 0) {
    return lines.filter((line) => line.isInsured !== false).reduce((sum, line) => sum + Number(line.priceCents) * line.quantity, 0);
  }
  const bySourceId = new Map(lines.map((line) => [line.sourceId, line]));
  return items.reduce((sum, item) => {
    const line = bySourceId.get(item.source_id);
    // A claim's items are checked against the order before this runs; an unknown one adds nothing.
    return line === undefined ? sum : sum + Number(line.priceCents) * Math.min(item.quantity, line.quantity);
  }, 0);
}
