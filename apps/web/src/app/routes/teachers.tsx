import TeachersPage from '../../features/teachers/teachers-page';

/** Teachers, an admin's screen. It combines no other feature today; this route is where it would. */
export default function TeachersRoute() {
  return <TeachersPage />;
}
