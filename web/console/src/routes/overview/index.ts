// The overview pages (an empty area until its pages are written).
export const overviewRoutes = {};
