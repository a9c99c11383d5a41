// The developers pages (an empty area until its pages are written).
export const developersRoutes = {};
