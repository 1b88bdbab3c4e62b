import { useLocation } from 'preact-iso';
import { api, outcome, type Post } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { RequireAccount } from '../components/Gates.tsx';
import { PostForm, type PostFields } from '../components/PostForm.tsx';
import { useLoad, useSession, useTitle } from '../hooks.ts';
import { paths } from '../paths.ts';

function fieldsOf(post: Post): PostFields {
  return {
    title: post.title,
    description: post.description,
    tags: post.tags.join(', '),
    keywords: post.keywords ?? '',
    meta_description: post.meta_description ?? '',
    publish: post.publish,
  };
}

/** `/posts/<slug>/edit`: the author changes the post; saved, it opens at its (new) slug. */
export default function Edit({ slug }: { slug: string }) {
  return (
    <RequireAccount>
      <EditForm slug={slug} />
    </RequireAccount>
  );
}

function EditForm({ slug }: { slug: string }) {
  const { route } = useLocation();
  const { username } = useSession();
  const { state, reload } = useLoad(() => outcome(() => api.GET('/posts/detail/{slug}', { params: { path: { slug } } })), [slug]);
  const post = state.status === 'done' && state.ok ? state.data : null;
  useTitle(post ? `Edit “${post.title}”` : 'Edit post');

  const save = (read: Post) => async (fields: PostFields) => {
    // `modified` as read: if someone saved in between, the API answers 409 and changes nothing.
    const result = await outcome(() =>
      api.PUT('/posts/detail/{slug}', { params: { path: { slug: read.slug } }, body: { ...fields, modified: read.modified } }),
    );
    if (!result.ok) return result.failure;
    route(paths.post(result.data.slug));
    return null;
  };

  return (
    <Content state={state} reload={reload}>
      {(read) => (
        <>
          <h1>Edit “{read.title}”</h1>
          {read.author !== username ? (
            <p class="alert" role="alert">
              Only the author of this post can edit it.
            </p>
          ) : (
            // A new key after a reload: the form starts again from the post as it is now.
            <PostForm key={read.modified} initial={fieldsOf(read)} save={save(read)} reload={reload} />
          )}
        </>
      )}
    </Content>
  );
}
