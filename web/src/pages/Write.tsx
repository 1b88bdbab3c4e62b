import { useLocation } from 'preact-iso';
import { api, outcome } from '../api/client.ts';
import { RequireAccount } from '../components/Gates.tsx';
import { EMPTY_POST, PostForm, type PostFields } from '../components/PostForm.tsx';
import { useTitle } from '../hooks.ts';
import { paths } from '../paths.ts';

/** `/write`: a new post; saved, it opens at its page. */
export default function Write() {
  useTitle('Write a post');
  const { route } = useLocation();
  const save = async (fields: PostFields) => {
    const result = await outcome(() => api.POST('/posts', { body: fields }));
    if (!result.ok) return result.failure;
    route(paths.post(result.data.slug));
    return null;
  };
  return (
    <RequireAccount>
      <h1>Write a post</h1>
      <PostForm initial={EMPTY_POST} save={save} />
    </RequireAccount>
  );
}
