// The SKUs that mark an order's protection line without any declaration (compared without regard to
// case or surrounding space). A store declares its own in addition (its protection_skus setting).
export const BUILT_IN_PROTECTION_SKUS = ['SHIPPING-PROTECTION', 'PACKAGE-PROTECTION', 'ORDER-PROTECTION', 'OP-SHIPMENT-PROTECTION'] as const;
