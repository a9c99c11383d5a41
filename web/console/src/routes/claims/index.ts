// The claims pages (an empty area until its pages are written).
export const claimsRoutes = {};
