/** The dashboard screen (composed with the range pickers and exports in app/routes/AnalyticsRoutes.tsx). */
export { DashboardPage, type DashboardPageProps } from './components/DashboardPage';
export type { DashboardRequest } from './api/get-dashboard';
