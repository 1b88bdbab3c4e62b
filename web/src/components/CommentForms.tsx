import { useEffect, useState } from 'preact/hooks';
import { api, outcome, type Comment } from '../api/client.ts';
import { useSubmission } from '../hooks.ts';
import { Field, otherErrors } from './Field.tsx';
import { Markdown } from './Markdown.tsx';
import { FormAlert } from './Problem.tsx';

// The forms of the region "Comments" (Comments.tsx): a new comment, a reply, an edit.

/**
 * The form of a new comment ("Add a comment") or of a reply ("Reply to <username>", with
 * "Cancel"): the comment the API answers goes to `onPosted`, its field errors next to the field.
 */
export function CommentForm({ slug, to, onPosted, onCancel }: { slug: string; to?: Comment; onPosted: (comment: Comment) => void; onCancel?: () => void }) {
  const [body, setBody] = useState('');
  const { busy, errors, failure, run } = useSubmission();
  const fieldId = to ? `reply-${to.id}` : 'comment-new';
  const submit = async () => {
    if (busy) return;
    await run(async () => {
      const result = await outcome(() =>
        api.POST('/posts/detail/{slug}/comments', { params: { path: { slug } }, body: to ? { body, parent: to.id } : { body } }),
      );
      if (!result.ok) return result.failure;
      setBody('');
      onPosted(result.data);
      return null;
    });
  };
  return (
    <form
      class="form comment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {to ? (
        <Field name="body" id={fieldId} label={`Reply to ${to.author}`} value={body} onInput={setBody} errors={errors} multiline rows={3} />
      ) : (
        <Field name="body" id={fieldId} label="Add a comment" value={body} onInput={setBody} errors={errors} multiline rows={4} hint="Markdown works here." />
      )}
      <FormAlert messages={otherErrors(errors, ['body'])} failure={failure} onRetry={() => void submit()} />
      <div class="actions">
        <button type="submit" aria-disabled={busy ? 'true' : undefined}>
          {to ? 'Post reply' : 'Post comment'}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** Moves the focus into a form as it opens (the person pressed "Reply" or "Edit" to type). */
function useFocusOnOpen(id: string) {
  useEffect(() => {
    document.getElementById(id)?.focus();
  }, []);
}

/** The form of a reply, the focus in its field as it opens (the person pressed "Reply" to type). */
export function ReplyForm(props: { to: Comment; slug: string; onPosted: (reply: Comment) => void; onCancel: () => void }) {
  useFocusOnOpen(`reply-${props.to.id}`);
  return <CommentForm {...props} />;
}

/**
 * The editor of one's comment. `modified` as read goes with the text: a change made elsewhere in
 * between is a 409, which shows the text as it is now (read again) and keeps what was typed;
 * saving again then replaces that text.
 */
export function EditComment({
  comment,
  onSaved,
  onCancel,
  onReread,
}: {
  comment: Comment;
  onSaved: (comment: Comment) => void;
  onCancel: () => void;
  /** The comment as it is now, read again after a 409. */
  onReread: (current: Comment) => void;
}) {
  const [body, setBody] = useState(comment.body);
  const [conflict, setConflict] = useState<string | null>(null);
  const { busy, errors, failure, run } = useSubmission();
  const fieldId = `edit-${comment.id}`;
  useFocusOnOpen(fieldId);
  const submit = async () => {
    if (busy) return;
    await run(async () => {
      setConflict(null);
      const result = await outcome(() =>
        api.PUT('/comments/detail/{id}', { params: { path: { id: comment.id } }, body: { body, modified: comment.modified } }),
      );
      if (result.ok) {
        onSaved(result.data);
        return null;
      }
      if (result.failure.kind === 'conflict') {
        const now = await outcome(() => api.GET('/comments/detail/{id}', { params: { path: { id: comment.id } } }));
        if (now.ok) onReread(now.data);
        setConflict(result.failure.message);
        return null;
      }
      return result.failure;
    });
  };
  return (
    <form
      class="form comment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {conflict && (
        <div class="alert" role="alert">
          <p>{conflict} Its text now:</p>
          <Markdown source={comment.body} class="prose comment-body" />
          <p>Save again to replace it with yours, or Cancel to keep it.</p>
        </div>
      )}
      <Field name="body" id={fieldId} label="Edit comment" value={body} onInput={setBody} errors={errors} multiline rows={4} />
      <FormAlert messages={otherErrors(errors, ['body'])} failure={failure} onRetry={() => void submit()} />
      <div class="actions">
        <button type="submit" aria-disabled={busy ? 'true' : undefined}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
