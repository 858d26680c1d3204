import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe deletion-request create`: its declaration — flags, help and examples.

export const deletionRequestCreate = {
  name: 'create',
  description: "File a data subject's deletion request (POST /v1/deletion_requests)",
  flags: {
    dryRun: DRY_RUN_FLAG,
    subjectUserId: { type: 'text', value: 'id', help: 'the user whose data is to be erased (1–512 characters)' },
    externalRequestId: { type: 'text', value: 'id', help: 'your id of the request (1–256 characters): a repeat answers the request first filed, so a retry never files two' },
    requestedAt: { type: 'text', value: 'date-time', help: 'when the subject asked, ISO 8601 (e.g. 2026-11-27T10:00:00Z)' },
  },
  details: `
Prints the deletion_request_id and status (accepted). The service records the request; the
erasure itself follows on its side. Without --external-request-id, an answer lost on the way is
not sent again (that could file a second request): csafe says so, exit 1.`,
  examples: [
    'csafe deletion-request create --subject-user-id u42 --external-request-id dsr-2026-0042',
    'csafe deletion-request create --subject-user-id u42 --requested-at 2026-11-27T10:00:00Z --json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
