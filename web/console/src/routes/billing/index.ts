// The billing pages (an empty area until its pages are written).
export const billingRoutes = {};
