// The shipments pages (an empty area until its pages are written).
export const shipmentsRoutes = {};
