const ROUTES = {
  orders: "/api/orders",
  records: "/api/records",
} as const;

type Route = keyof typeof ROUTES;
const routes = (Object.keys(ROUTES) as Route[]).map((k) => `${k} -> ${ROUTES[k]}`);
routes
