import { useState } from 'preact/hooks';
import type { Failure } from '../api/client.ts';
import { useSubmission } from '../hooks.ts';
import { Field, otherErrors } from './Field.tsx';
import { Markdown } from './Markdown.tsx';
import { FormAlert } from './Problem.tsx';

export interface PostFields {
  title: string;
  description: string;
  tags: string;
  keywords: string;
  meta_description: string;
  publish: boolean;
}

export const EMPTY_POST: PostFields = { title: '', description: '', tags: '', keywords: '', meta_description: '', publish: false };

const SHOWN = ['title', 'description', 'tags', 'keywords', 'meta_description', 'publish'];

interface Props {
  initial: PostFields;
  /** Sends the post; a failure is shown, and what was typed stays. */
  save: (fields: PostFields) => Promise<Failure | null>;
  /** After a 409: load the post as it is now (replaces what was typed). */
  reload?: () => void;
}

const KEPT = 'community-posts.unsaved:';

/**
 * What was typed when the session ended on saving: the login comes back to this page, and the
 * form starts from it again (this tab only, once).
 */
function takeKept(initial: PostFields): PostFields {
  try {
    const key = KEPT + location.pathname;
    const kept = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    return kept ? { ...initial, ...(JSON.parse(kept) as Partial<PostFields>) } : initial;
  } catch {
    return initial;
  }
}

function keep(fields: PostFields): void {
  try {
    sessionStorage.setItem(KEPT + location.pathname, JSON.stringify(fields));
  } catch {
    // No storage: the text is lost with the session, as without this.
  }
}

/** The form of a post (write and edit): labelled fields, "Preview", "Save", the API's errors. */
export function PostForm({ initial, save, reload }: Props) {
  const [fields, setFields] = useState<PostFields>(() => takeKept(initial));
  const { busy, errors, failure, run } = useSubmission();
  const [preview, setPreview] = useState<string | null>(null);
  const set = (name: keyof PostFields) => (value: string) => setFields((f) => ({ ...f, [name]: value }));

  const submit = () =>
    run(async () => {
      const result = await save(fields);
      if (result?.kind === 'unauthorized') keep(fields);
      return result;
    });
  const other = otherErrors(errors, SHOWN);

  return (
    <form
      class="form post-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Field name="title" label="Title" value={fields.title} onInput={set('title')} errors={errors} />
      <Field
        name="description"
        label="Description"
        value={fields.description}
        onInput={set('description')}
        errors={errors}
        multiline
        rows={14}
        hint="Markdown: **bold**, _italic_, [links](https://example.com), lists, tables and ``` code ```."
      />
      <Field name="tags" label="Tags" value={fields.tags} onInput={set('tags')} errors={errors} hint="Separate tags with commas." />
      <Field name="keywords" label="Keywords" value={fields.keywords} onInput={set('keywords')} errors={errors} />
      <Field
        name="meta_description"
        label="Meta description"
        value={fields.meta_description}
        onInput={set('meta_description')}
        errors={errors}
        multiline
        rows={2}
      />
      <div class="field checkbox">
        <input
          id="field-publish"
          type="checkbox"
          checked={fields.publish}
          aria-describedby={errors.publish ? 'field-publish-errors' : undefined}
          onChange={(event) => setFields((f) => ({ ...f, publish: event.currentTarget.checked }))}
        />
        <label for="field-publish">Publish</label>
        {errors.publish && (
          <ul class="field-errors" id="field-publish-errors">
            {errors.publish.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
      </div>
      <FormAlert
        messages={other}
        failure={failure}
        onRetry={() => void submit()}
        conflict={
          <>
            <p>This post was changed elsewhere since you opened it. Reload it to see the changes; what you typed here will be replaced.</p>
            {reload && (
              <button type="button" onClick={reload}>
                Reload
              </button>
            )}
          </>
        }
      />
      <div class="actions">
        <button type="button" class="secondary" onClick={() => setPreview(fields.description)}>
          Preview
        </button>
        <button type="submit" disabled={busy}>
          Save
        </button>
      </div>
      {preview !== null && (
        <section class="preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview of the description</h2>
          {preview.trim() ? <Markdown source={preview} /> : <p>Nothing to preview yet.</p>}
        </section>
      )}
    </form>
  );
}
