import { NotFoundContent } from '../components/Gates.tsx';

/** Any path the site does not know. */
export default function NotFound() {
  return <NotFoundContent />;
}
