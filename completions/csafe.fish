# fish completion for csafe, generated from its command tree by `npm run gen`; `csafe completion fish` prints it.
# Install: csafe completion fish > ~/.config/fish/completions/csafe.fish

# The groups and verbs typed so far: the words that are neither flags nor a flag's value, while they name a group.
function __csafe_path
    set -l at ''
    set -l words (commandline -opc)[2..-1]
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case --
                break
            case --account-version --action --agent-type --api-key --api-version --audio --base-url --batch --batch-size --captions --chat --checkpoint --comment --concurrency --content --content-id --content-type --data --data-dir --decision --download --events --expires-in --external-request-id --fail-on --failed --fault-delay --fault-rate --faults --field --flush-interval --forward-secret --forward-to --frame --from-line --headers --host --id --latency --max-batch-bytes --max-buffer --max-consecutive-failures --max-rate --max-retries --max-wait --metadata --namespace --output --policy-id --port --processing-delay --profile --reference-id --request-log-size --request-timeout --requested-at --schema --secret --seed --sender-id --sender-name --session-id --shard --signature --skip-invalid --speaker --start --subject-user-id --text --timeout --timestamp --tolerance --transcript --type --unconfirmed --upload-ttl --url --user-id --webhook-fault-delay --webhook-fault-rate --webhook-faults --webhook-retry-delays --webhook-secret --webhook-timeout --webhook-url -o
                set skip 1
            case '-*'
            case '*'
                switch $at
                    case '' 'token' 'auth' 'config' 'settings' 'data' 'import' 'events' 'stream' 'decision' 'batch' 'agent-decision' 'deletion-request' 'webhooks' 'emulator'
                        set at (string trim -- "$at $word")
                end
        end
    end
    echo $at
end

function __csafe_at
    test (__csafe_path) = "$argv"
end

# `emulator exec … -- CMD ARGS…`: what fish completes for CMD ARGS… on a line of their own.
function __csafe_after_dashdash
    contains -- -- (commandline -opc)
end

function __csafe_command
    set -l words (commandline -opc)
    set -l rest $words[(math (contains -i -- -- $words) + 1)..-1]
    complete -C (string join ' ' -- (string escape -- $rest) (commandline -ct))
end

complete -c csafe -f
complete -c csafe -l profile -x -a '(csafe __complete profiles 2>/dev/null)' -d 'configuration profile'
complete -c csafe -l api-key -x -d 'API key or short-lived token'
complete -c csafe -l base-url -x -d 'service base URL'
complete -c csafe -l request-timeout -x -d 'timeout of each request, e.g. 30s, 2m'
complete -c csafe -l max-retries -x -d 'retries of a failed request where retrying is safe'
complete -c csafe -l max-wait -x -d 'longest Retry-After wait to sleep through'
complete -c csafe -s o -l output -x -a 'table json ndjson tsv' -d 'output format: table, json, ndjson or tsv'
complete -c csafe -l json -d 'same as --output json: one JSON document'
complete -c csafe -l wide -d 'tables show long cells whole instead of cutting them to the terminal width'
complete -c csafe -s v -l verbose -d 'trace every request on stderr'
complete -c csafe -s q -l quiet -d 'no progress, spinners or notes on stderr'
complete -c csafe -l progress -d 'when stderr is not a terminal'
complete -c csafe -l no-color -d 'no colour'
complete -c csafe -l insecure -d 'allow plain http:// to a non-loopback host'
complete -c csafe -l emulator -d 'run against an in-process emulator on an ephemeral port'
complete -c csafe -s h -l help -d 'show help'
complete -c csafe -s V -l version -d 'print the version'
complete -c csafe -n "__csafe_at ''" -f -a classify -d 'Classify text and images synchronously'
complete -c csafe -n "__csafe_at ''" -f -a token -d 'Short-lived access tokens'
complete -c csafe -n "__csafe_at ''" -f -a auth -d 'Store, show and remove the API key'
complete -c csafe -n "__csafe_at ''" -f -a config -d 'Profile settings: api_key, base_url, user_id, output, request_timeout, max_retri'
complete -c csafe -n "__csafe_at ''" -f -a settings -d 'Namespace settings: the schema of its fields'
complete -c csafe -n "__csafe_at ''" -f -a data -d 'Namespace data: add objects, import files, follow requests to their labels, down'
complete -c csafe -n "__csafe_at ''" -f -a import -d 'Older imports: upload a JSONL file of {"type", "data"} lines'
complete -c csafe -n "__csafe_at ''" -f -a events -d 'Backend events: validate and send, resumable and ordered'
complete -c csafe -n "__csafe_at ''" -f -a stream -d 'Livestreams: monitor a stream, push chat, transcripts, frames and audio as they '
complete -c csafe -n "__csafe_at ''" -f -a decision -d 'Decisions'
complete -c csafe -n "__csafe_at ''" -f -a batch -d 'Older batches: review a CSV of content, follow it, download the result as CSV or'
complete -c csafe -n "__csafe_at ''" -f -a agent-decision -d 'Your reviewers\' verdicts, fed back to the service: was its own verdict right?'
complete -c csafe -n "__csafe_at ''" -f -a deletion-request -d 'Data subjects\' deletion requests: file one, kept once per external id'
complete -c csafe -n "__csafe_at ''" -f -a webhooks -d 'Signed notifications'
complete -c csafe -n "__csafe_at ''" -f -a emulator -d 'A local Content Safety Service for offline development and tests'
complete -c csafe -n "__csafe_at ''" -f -a completion -d 'Print the completion script of a shell: bash, zsh or fish'
complete -c csafe -n "__csafe_at ''" -f -a version -d 'Show csafe\'s version, the commit and date it was built from, and the Node.js run'
complete -c csafe -n "__csafe_at 'classify'" -F
complete -c csafe -n "__csafe_at 'classify'" -l text -x -d 'text to classify'
complete -c csafe -n "__csafe_at 'classify'" -l user-id -x -d 'stable identifier of the user'
complete -c csafe -n "__csafe_at 'classify'" -l content-id -x -d 'your identifier for the content'
complete -c csafe -n "__csafe_at 'classify'" -l metadata -x -d 'metadata'
complete -c csafe -n "__csafe_at 'classify'" -l api-version -x -a '2026-08-11 2026-08-05' -d 'service version: 2026-08-11'
complete -c csafe -n "__csafe_at 'classify'" -l each -d 'one request per file, each file\'s labels under its name, in the order given'
complete -c csafe -n "__csafe_at 'classify'" -l fail-on -x -a 'match review' -d 'exit 4 when any label reaches match, or review'
complete -c csafe -n "__csafe_at 'classify'" -l batch -r -F -d 'classify each line of a JSONL file'
complete -c csafe -n "__csafe_at 'classify'" -l concurrency -x -d 'requests in flight with --batch or --each, at most 256'
complete -c csafe -n "__csafe_at 'classify'" -l failed -r -F -d 'with --batch: append each line that failed here, as read, to classify again'
complete -c csafe -n "__csafe_at 'classify'" -l skip-invalid -r -F -d 'with --batch: send the valid lines; append each invalid line here as {line, erro'
complete -c csafe -n "__csafe_at 'classify'" -l max-consecutive-failures -x -d 'stop once n requests in a row could not reach the service'
complete -c csafe -n "__csafe_at 'classify'" -l max-rate -x -d 'with --batch: start at most n requests a second'
complete -c csafe -n "__csafe_at 'classify'" -l checkpoint -r -F -d 'with --batch: record the lines the service acknowledged here; a re-run of the sa'
complete -c csafe -n "__csafe_at 'classify'" -l from-line -x -d 'with --batch: start at line n of the input, skipping the lines before it'
complete -c csafe -n "__csafe_at 'classify'" -l shard -x -d 'with --batch: send only the lines of worker i of n'
complete -c csafe -n "__csafe_at 'token'" -f -a create -d 'Exchange the API key for a short-lived access token'
complete -c csafe -n "__csafe_at 'token create'" -l expires-in -x -d 'lifetime, 5m..24h: a duration such as 15m, or seconds'
complete -c csafe -n "__csafe_at 'token create'" -l user-id -x -d 'user the token is attributed to'
complete -c csafe -n "__csafe_at 'token create'" -l session-id -x -d 'opaque customer session identifier'
complete -c csafe -n "__csafe_at 'auth'" -f -a login -d 'Check an API key with the service and store it in the profile'
complete -c csafe -n "__csafe_at 'auth'" -f -a status -d 'Show which key and base URL would be used, and where they come from'
complete -c csafe -n "__csafe_at 'auth'" -f -a logout -d 'Remove the stored API key from the profile'
complete -c csafe -n "__csafe_at 'auth login'" -l with-token -d 'read the key from stdin'
complete -c csafe -n "__csafe_at 'auth login'" -l no-verify -d 'store the key without checking it with the service'
complete -c csafe -n "__csafe_at 'config'" -f -a get -d 'Print one setting of the profile'
complete -c csafe -n "__csafe_at 'config'" -f -a set -d 'Set one setting of the profile, creating the profile if it is new; the value is '
complete -c csafe -n "__csafe_at 'config'" -f -a unset -d 'Remove one setting from the profile'
complete -c csafe -n "__csafe_at 'config'" -f -a list -d 'Print every setting of the profile'
complete -c csafe -n "__csafe_at 'config get'" -x
complete -c csafe -n "__csafe_at 'config set'" -x
complete -c csafe -n "__csafe_at 'config unset'" -x
complete -c csafe -n "__csafe_at 'settings'" -f -a put -d 'Create or replace the schema of a namespace'
complete -c csafe -n "__csafe_at 'settings put'" -F
complete -c csafe -n "__csafe_at 'settings put'" -l field -x -d 'a field, instead of a file'
complete -c csafe -n "__csafe_at 'data'" -f -a add -d 'Add objects to a namespace in batches'
complete -c csafe -n "__csafe_at 'data'" -f -a import -d 'Upload a large JSONL file into a namespace'
complete -c csafe -n "__csafe_at 'data'" -f -a status -d 'Show an add or import request'
complete -c csafe -n "__csafe_at 'data'" -f -a download -d 'Stream a request\'s output'
complete -c csafe -n "__csafe_at 'data add'" -F
complete -c csafe -n "__csafe_at 'data add'" -l batch-size -x -d 'objects per request'
complete -c csafe -n "__csafe_at 'data add'" -l max-batch-bytes -x -d 'bytes per request, at most 6000000'
complete -c csafe -n "__csafe_at 'data add'" -l concurrency -x -d 'requests in flight'
complete -c csafe -n "__csafe_at 'data add'" -l shard -x -d 'send only the objects of worker i of n'
complete -c csafe -n "__csafe_at 'data add'" -l checkpoint -r -F -d 'record the objects the service acknowledged here; a re-run of the same command s'
complete -c csafe -n "__csafe_at 'data add'" -l failed -r -F -d 'append the objects of batches that could not be sent, as sent'
complete -c csafe -n "__csafe_at 'data add'" -l skip-invalid -r -F -d 'send the valid objects; append each invalid record here as {line, error, record}'
complete -c csafe -n "__csafe_at 'data add'" -l max-consecutive-failures -x -d 'stop once n requests in a row could not reach the service'
complete -c csafe -n "__csafe_at 'data add'" -l max-rate -x -d 'start at most n requests a second'
complete -c csafe -n "__csafe_at 'data add'" -l schema -r -F -d 'a namespace schema, as `settings put` takes it, sent with every batch and applie'
complete -c csafe -n "__csafe_at 'data add'" -l wait -d 'wait until every request has finished, then print each request as `data status` '
complete -c csafe -n "__csafe_at 'data add'" -l timeout -x -d 'with --wait: how long to wait, e.g. 30m'
complete -c csafe -n "__csafe_at 'data import'" -F
complete -c csafe -n "__csafe_at 'data import'" -l wait -d 'poll the import until it has succeeded or failed, then print its record'
complete -c csafe -n "__csafe_at 'data import'" -l timeout -x -d 'with --wait: how long to wait, e.g. 30m'
complete -c csafe -n "__csafe_at 'data import'" -l no-validate -d 'upload without checking every line first'
complete -c csafe -n "__csafe_at 'data import'" -l schema -r -F -d 'a namespace schema, as `settings put` takes it, applied to the namespace with th'
complete -c csafe -n "__csafe_at 'data status'" -x
complete -c csafe -n "__csafe_at 'data status'" -l wait -d 'poll until the request has succeeded or failed'
complete -c csafe -n "__csafe_at 'data status'" -l timeout -x -d 'with --wait: how long to wait, e.g. 30m'
complete -c csafe -n "__csafe_at 'data download'" -F
complete -c csafe -n "__csafe_at 'import'" -f -a create -d 'Create an import and upload a JSONL file to it'
complete -c csafe -n "__csafe_at 'import'" -f -a get -d 'Show an import'
complete -c csafe -n "__csafe_at 'import create'" -F
complete -c csafe -n "__csafe_at 'import create'" -l wait -d 'poll the import until it is COMPLETE or FAILED'
complete -c csafe -n "__csafe_at 'import create'" -l timeout -x -d 'with --wait: how long to wait, e.g. 10m'
complete -c csafe -n "__csafe_at 'import get'" -x
complete -c csafe -n "__csafe_at 'import get'" -l wait -d 'poll until the import is COMPLETE or FAILED'
complete -c csafe -n "__csafe_at 'import get'" -l timeout -x -d 'with --wait: how long to wait, e.g. 10m'
complete -c csafe -n "__csafe_at 'events'" -f -a send -d 'Validate backend events and queue them in ordered batches'
complete -c csafe -n "__csafe_at 'events'" -f -a example -d 'Print a valid example event of a variant'
complete -c csafe -n "__csafe_at 'events send'" -F
complete -c csafe -n "__csafe_at 'events send'" -l dry-run -d 'validate only: print problems and a summary, send nothing'
complete -c csafe -n "__csafe_at 'events send'" -l sync -d 'ingest each batch before the answer'
complete -c csafe -n "__csafe_at 'events send'" -l checkpoint -r -F -d 'record the events the service acknowledged here; a re-run of the same command se'
complete -c csafe -n "__csafe_at 'events send'" -l failed -r -F -d 'append the events of batches that could not be sent, as sent'
complete -c csafe -n "__csafe_at 'events send'" -l unconfirmed -r -F -d 'append the events without an idempotency_key of batches whose answer was lost'
complete -c csafe -n "__csafe_at 'events send'" -l skip-invalid -r -F -d 'send the valid events; append each invalid record here as {line, error, record}'
complete -c csafe -n "__csafe_at 'events send'" -l allow-unknown-types -d 'pass events of a type the spec does not show through unchecked'
complete -c csafe -n "__csafe_at 'events send'" -l no-auto-idempotency -d 'do not add a content-derived idempotency_key to events without one'
complete -c csafe -n "__csafe_at 'events send'" -l batch-size -x -d 'events per request'
complete -c csafe -n "__csafe_at 'events send'" -l max-batch-bytes -x -d 'bytes per request, at most 6000000'
complete -c csafe -n "__csafe_at 'events send'" -l concurrency -x -d 'requests in flight; events of one user always share one'
complete -c csafe -n "__csafe_at 'events send'" -l max-consecutive-failures -x -d 'stop once n requests in a row could not reach the service'
complete -c csafe -n "__csafe_at 'events send'" -l max-rate -x -d 'start at most n requests a second'
complete -c csafe -n "__csafe_at 'events send'" -l shard -x -d 'send only the users of worker i of n'
complete -c csafe -n "__csafe_at 'events example'" -x -a 'user_contact content_uploaded product_changed create_account update_account user_report moderation_decision'
complete -c csafe -n "__csafe_at 'stream'" -f -a watch -d 'Monitor a livestream at its address'
complete -c csafe -n "__csafe_at 'stream'" -f -a parts -d 'Append parts to a stream'
complete -c csafe -n "__csafe_at 'stream watch'" -x
complete -c csafe -n "__csafe_at 'stream watch'" -l id -x -d 'your identifier of the stream; its parts are sent under the same id'
complete -c csafe -n "__csafe_at 'stream watch'" -l url -x -d 'the stream\'s address: an absolute http, https, rtmp, rtmps, rtsp or srt URL'
complete -c csafe -n "__csafe_at 'stream parts'" -F
complete -c csafe -n "__csafe_at 'stream parts'" -l id -x -d 'your identifier of the stream'
complete -c csafe -n "__csafe_at 'stream parts'" -l chat -x -d 'one chat message, with --sender-id and --sender-name'
complete -c csafe -n "__csafe_at 'stream parts'" -l sender-id -x -d 'with --chat: your stable identifier of the sender'
complete -c csafe -n "__csafe_at 'stream parts'" -l sender-name -x -d 'with --chat: the name shown in the chat'
complete -c csafe -n "__csafe_at 'stream parts'" -l transcript -x -d 'one transcript line: what was said'
complete -c csafe -n "__csafe_at 'stream parts'" -l speaker -x -d 'with --transcript: who said it'
complete -c csafe -n "__csafe_at 'stream parts'" -l frame -x -d 'one frame image, by its http'
complete -c csafe -n "__csafe_at 'stream parts'" -l audio -x -d 'one audio segment, by its http'
complete -c csafe -n "__csafe_at 'stream parts'" -l timestamp -x -d 'with a part by flags: when it happened, ISO 8601 with a time zone'
complete -c csafe -n "__csafe_at 'stream parts'" -l captions -r -F -d 'WebVTT or SubRip captions: each cue becomes a transcript part'
complete -c csafe -n "__csafe_at 'stream parts'" -l start -x -d 'with --captions: the date-time the captions\' 00:00 stands for'
complete -c csafe -n "__csafe_at 'stream parts'" -l batch-size -x -d 'parts per request'
complete -c csafe -n "__csafe_at 'stream parts'" -l max-batch-bytes -x -d 'bytes per request, at most 6000000'
complete -c csafe -n "__csafe_at 'stream parts'" -l failed -r -F -d 'append the parts of batches that could not be sent, as sent'
complete -c csafe -n "__csafe_at 'stream parts'" -l unconfirmed -r -F -d 'append the parts of batches whose answer was lost'
complete -c csafe -n "__csafe_at 'stream parts'" -l skip-invalid -r -F -d 'send the valid parts; append each invalid record here as {line, error, record}'
complete -c csafe -n "__csafe_at 'stream parts'" -l checkpoint -r -F -d 'with a FILE or --captions: record the parts the service acknowledged here; a re-'
complete -c csafe -n "__csafe_at 'stream parts'" -l max-consecutive-failures -x -d 'stop once n requests in a row could not reach the service'
complete -c csafe -n "__csafe_at 'stream parts'" -l max-rate -x -d 'start at most n requests a second'
complete -c csafe -n "__csafe_at 'stream parts'" -l follow -d 'read a pipe'
complete -c csafe -n "__csafe_at 'stream parts'" -l flush-interval -x -d 'with --follow: send a batch that is not full once its oldest part has waited thi'
complete -c csafe -n "__csafe_at 'stream parts'" -l max-buffer -x -d 'with --follow: parts read ahead while a batch is sent or retried; reading pauses'
complete -c csafe -n "__csafe_at 'decision'" -f -a create -d 'Ask for a decision on one piece of content'
complete -c csafe -n "__csafe_at 'decision'" -f -a get -d 'Show a decision: status, result and labels'
complete -c csafe -n "__csafe_at 'decision create'" -l type -x -d 'the kind of content to review, e.g. text, listing'
complete -c csafe -n "__csafe_at 'decision create'" -l content -x -d 'the content: a JSON object, inline or from a file'
complete -c csafe -n "__csafe_at 'decision create'" -l metadata -x -d 'metadata kept with the decision'
complete -c csafe -n "__csafe_at 'decision create'" -l wait -d 'poll until the decision is SUCCESS or ERROR, then show it'
complete -c csafe -n "__csafe_at 'decision create'" -l timeout -x -d 'with --wait: how long to wait, e.g. 5m'
complete -c csafe -n "__csafe_at 'decision get'" -x
complete -c csafe -n "__csafe_at 'decision get'" -l wait -d 'poll while it is PENDING, until SUCCESS or ERROR'
complete -c csafe -n "__csafe_at 'decision get'" -l timeout -x -d 'with --wait: how long to wait, e.g. 5m'
complete -c csafe -n "__csafe_at 'batch'" -f -a create -d 'Check a CSV and send it as a batch'
complete -c csafe -n "__csafe_at 'batch'" -f -a get -d 'Show a batch: its status and five counts'
complete -c csafe -n "__csafe_at 'batch'" -f -a download -d 'Stream the result CSV of a finished batch to a file or stdout, or as one JSON ob'
complete -c csafe -n "__csafe_at 'batch create'" -F
complete -c csafe -n "__csafe_at 'batch create'" -l type -x -d 'the kind of content to review, e.g. text'
complete -c csafe -n "__csafe_at 'batch create'" -l wait -d 'poll the batch until SUCCESS, CANCELLED or ERROR'
complete -c csafe -n "__csafe_at 'batch create'" -l timeout -x -d 'with --wait: how long to wait, e.g. 30m'
complete -c csafe -n "__csafe_at 'batch create'" -l download -r -F -d 'with --wait: write the result CSV to this file once the batch has succeeded'
complete -c csafe -n "__csafe_at 'batch get'" -x
complete -c csafe -n "__csafe_at 'batch get'" -l wait -d 'poll until SUCCESS, CANCELLED or ERROR'
complete -c csafe -n "__csafe_at 'batch get'" -l timeout -x -d 'with --wait: how long to wait, e.g. 30m'
complete -c csafe -n "__csafe_at 'batch get'" -l download -r -F -d 'with --wait: write the result CSV to this file once the batch has succeeded'
complete -c csafe -n "__csafe_at 'batch download'" -F
complete -c csafe -n "__csafe_at 'batch download'" -l escape-formulas -d 'write cells that start with =, +, - or @ with a leading \''
complete -c csafe -n "__csafe_at 'agent-decision'" -f -a create -d 'Send your reviewer\'s verdict on one object under one policy'
complete -c csafe -n "__csafe_at 'agent-decision'" -f -a send -d 'Send a JSONL file of your reviewers\' verdicts, one request each'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l content-type -x -d 'the kind of object reviewed, e.g. listings: the namespace it is in'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l decision -x -d 'the reviewer\'s verdict, e.g. match or no_match'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l policy-id -x -d 'the policy the verdict is about, e.g. violence'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l reference-id -x -d 'the id of the object reviewed'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l action -x -d 'what the reviewer did, e.g. removed'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l agent-type -x -d 'who reviewed, e.g. appeal, bpo_review, policy_expert'
complete -c csafe -n "__csafe_at 'agent-decision create'" -l comment -x -d 'a note from the reviewer'
complete -c csafe -n "__csafe_at 'agent-decision send'" -F
complete -c csafe -n "__csafe_at 'agent-decision send'" -l concurrency -x -d 'requests in flight'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l failed -r -F -d 'append each line that failed here, as read, to send again'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l unconfirmed -r -F -d 'append each line whose answer was lost'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l skip-invalid -r -F -d 'send the valid lines; append each invalid line here as {line, error, record}'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l max-consecutive-failures -x -d 'stop once n requests in a row could not reach the service'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l max-rate -x -d 'start at most n requests a second'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l checkpoint -r -F -d 'record the verdicts the service acknowledged here; a re-run of the same command '
complete -c csafe -n "__csafe_at 'agent-decision send'" -l from-line -x -d 'start at line n of the input, skipping the lines before it'
complete -c csafe -n "__csafe_at 'agent-decision send'" -l shard -x -d 'send only the lines of worker i of n'
complete -c csafe -n "__csafe_at 'deletion-request'" -f -a create -d 'File a data subject\'s deletion request'
complete -c csafe -n "__csafe_at 'deletion-request'" -f -a send -d 'File a JSONL file of data subjects\' deletion requests, one request each'
complete -c csafe -n "__csafe_at 'deletion-request create'" -l subject-user-id -x -d 'the user whose data is to be erased'
complete -c csafe -n "__csafe_at 'deletion-request create'" -l external-request-id -x -d 'your id of the request'
complete -c csafe -n "__csafe_at 'deletion-request create'" -l requested-at -x -d 'when the subject asked, ISO 8601'
complete -c csafe -n "__csafe_at 'deletion-request send'" -F
complete -c csafe -n "__csafe_at 'deletion-request send'" -l concurrency -x -d 'requests in flight'
complete -c csafe -n "__csafe_at 'deletion-request send'" -l failed -r -F -d 'append each line that failed here, as read, to send again'
complete -c csafe -n "__csafe_at 'deletion-request send'" -l skip-invalid -r -F -d 'send the valid lines; append each invalid line here as {line, error, record}'
complete -c csafe -n "__csafe_at 'deletion-request send'" -l max-consecutive-failures -x -d 'stop once n requests in a row could not reach the service'
complete -c csafe -n "__csafe_at 'deletion-request send'" -l max-rate -x -d 'start at most n requests a second'
complete -c csafe -n "__csafe_at 'deletion-request send'" -l checkpoint -r -F -d 'record the requests the service acknowledged here; a re-run of the same command '
complete -c csafe -n "__csafe_at 'deletion-request send'" -l from-line -x -d 'start at line n of the input, skipping the lines before it'
complete -c csafe -n "__csafe_at 'deletion-request send'" -l shard -x -d 'send only the lines of worker i of n'
complete -c csafe -n "__csafe_at 'webhooks'" -f -a verify -d 'Check a notification\'s Standard Webhooks signature and timestamp, as your receiv'
complete -c csafe -n "__csafe_at 'webhooks'" -f -a listen -d 'Receive the emulator\'s notifications on this machine and forward each to your re'
complete -c csafe -n "__csafe_at 'webhooks'" -f -a trigger -d 'Have the emulator send one event to its webhook endpoints now: a sample, or your'
complete -c csafe -n "__csafe_at 'webhooks verify'" -F
complete -c csafe -n "__csafe_at 'webhooks verify'" -l secret -x -d 'the endpoint\'s signing secret'
complete -c csafe -n "__csafe_at 'webhooks verify'" -l id -x -d 'the webhook-id header'
complete -c csafe -n "__csafe_at 'webhooks verify'" -l timestamp -x -d 'the webhook-timestamp header'
complete -c csafe -n "__csafe_at 'webhooks verify'" -l signature -x -d 'the webhook-signature header: one or more space-separated v1,<base64> entries'
complete -c csafe -n "__csafe_at 'webhooks verify'" -l headers -r -F -d 'the request\'s headers instead: `Name: value` lines as captured'
complete -c csafe -n "__csafe_at 'webhooks verify'" -l tolerance -x -d 'how far the timestamp may be from now, either way'
complete -c csafe -n "__csafe_at 'webhooks listen'" -l forward-to -x -d 'your receiver, e.g. http://localhost:3000/webhooks'
complete -c csafe -n "__csafe_at 'webhooks listen'" -l events -x -d 'only these event types, comma-separated: workflow.succeeded, workflow.failed, de'
complete -c csafe -n "__csafe_at 'webhooks listen'" -l forward-secret -x -d 're-sign each forwarded notification with this secret'
complete -c csafe -n "__csafe_at 'webhooks trigger'" -x -a 'workflow.succeeded workflow.failed decision.completed batch.completed'
complete -c csafe -n "__csafe_at 'webhooks trigger'" -l namespace -x -d 'with a workflow event: the namespace it is about'
complete -c csafe -n "__csafe_at 'webhooks trigger'" -l id -x -d 'the object a workflow event is about'
complete -c csafe -n "__csafe_at 'webhooks trigger'" -l data -x -d 'your own data: the fields of a workflow event'
complete -c csafe -n "__csafe_at 'emulator'" -f -a start -d 'Run a local Content Safety Service until interrupted'
complete -c csafe -n "__csafe_at 'emulator'" -f -a exec -d 'Run a command against a throw-away emulator, then stop it and exit with the comm'
complete -c csafe -n "__csafe_at 'emulator'" -f -a status -d 'Show whether an emulator answers at the base URL, and how long it has run'
complete -c csafe -n "__csafe_at 'emulator'" -f -a reset -d 'Drop everything an emulator holds: namespaces, requests, uploads, streams, event'
complete -c csafe -n "__csafe_at 'emulator start'" -l host -x -d 'address to listen on'
complete -c csafe -n "__csafe_at 'emulator start'" -l port -x -d 'port; 0 picks a free one'
complete -c csafe -n "__csafe_at 'emulator start'" -l latency -x -d 'delay added to every API response, e.g. 50ms or 1s'
complete -c csafe -n "__csafe_at 'emulator start'" -l account-version -x -a '2026-08-11 2026-08-05' -d 'version served when a request names none'
complete -c csafe -n "__csafe_at 'emulator start'" -l fault-rate -x -d 'fraction of /v1 requests that meet an injected fault, 0..1'
complete -c csafe -n "__csafe_at 'emulator start'" -l faults -x -d 'faults to inject: 429,503,reset,timeout'
complete -c csafe -n "__csafe_at 'emulator start'" -l seed -x -d 'seed of the fault sequence, to replay a failure'
complete -c csafe -n "__csafe_at 'emulator start'" -l fault-delay -x -d 'how long a timeout fault holds its response'
complete -c csafe -n "__csafe_at 'emulator start'" -l processing-delay -x -d 'how long namespace data, older imports and batches take to process'
complete -c csafe -n "__csafe_at 'emulator start'" -l upload-ttl -x -d 'lifetime of pre-signed namespace import upload URLs'
complete -c csafe -n "__csafe_at 'emulator start'" -l data-dir -x -a '(__fish_complete_directories)' -d 'keep namespaces, requests, uploads, streams, older imports, batches and the URL '
complete -c csafe -n "__csafe_at 'emulator start'" -l request-log-size -x -d 'how many of the latest requests GET /_emulator/requests keeps'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-url -x -d 'send signed notifications here when work ends'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-secret -x -d 'sign notifications with this secret'
complete -c csafe -n "__csafe_at 'emulator start'" -l print-secret -d 'print the webhook signing secret with the address and key'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-retry-delays -x -d 'waits before each retry of a notification not answered 2xx, e.g. 1s,2s'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-timeout -x -d 'how long a receiver may take to answer a notification before it is retried'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-fault-rate -x -d 'fraction of notification attempts that meet an injected fault, 0..1'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-faults -x -d 'faults to inject into notifications: drop,delay'
complete -c csafe -n "__csafe_at 'emulator start'" -l webhook-fault-delay -x -d 'how late a delayed notification is sent'
complete -c csafe -n "__csafe_at 'emulator exec'" -n '__csafe_after_dashdash' -x -a '(__csafe_command)'
complete -c csafe -n "__csafe_at 'emulator exec'" -l host -x -d 'address to listen on'
complete -c csafe -n "__csafe_at 'emulator exec'" -l latency -x -d 'delay added to every API response, e.g. 50ms or 1s'
complete -c csafe -n "__csafe_at 'emulator exec'" -l account-version -x -a '2026-08-11 2026-08-05' -d 'version served when a request names none'
complete -c csafe -n "__csafe_at 'emulator exec'" -l fault-rate -x -d 'fraction of /v1 requests that meet an injected fault, 0..1'
complete -c csafe -n "__csafe_at 'emulator exec'" -l faults -x -d 'faults to inject: 429,503,reset,timeout'
complete -c csafe -n "__csafe_at 'emulator exec'" -l seed -x -d 'seed of the fault sequence, to replay a failure'
complete -c csafe -n "__csafe_at 'emulator exec'" -l fault-delay -x -d 'how long a timeout fault holds its response'
complete -c csafe -n "__csafe_at 'emulator exec'" -l processing-delay -x -d 'how long namespace data, older imports and batches take to process'
complete -c csafe -n "__csafe_at 'emulator exec'" -l upload-ttl -x -d 'lifetime of pre-signed namespace import upload URLs'
complete -c csafe -n "__csafe_at 'emulator exec'" -l data-dir -x -a '(__fish_complete_directories)' -d 'keep namespaces, requests, uploads, streams, older imports, batches and the URL '
complete -c csafe -n "__csafe_at 'emulator exec'" -l request-log-size -x -d 'how many of the latest requests GET /_emulator/requests keeps'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-url -x -d 'send signed notifications here when work ends'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-secret -x -d 'sign notifications with this secret'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-retry-delays -x -d 'waits before each retry of a notification not answered 2xx, e.g. 1s,2s'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-timeout -x -d 'how long a receiver may take to answer a notification before it is retried'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-fault-rate -x -d 'fraction of notification attempts that meet an injected fault, 0..1'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-faults -x -d 'faults to inject into notifications: drop,delay'
complete -c csafe -n "__csafe_at 'emulator exec'" -l webhook-fault-delay -x -d 'how late a delayed notification is sent'
complete -c csafe -n "__csafe_at 'emulator exec'" -l port -x -d 'port; 0, the default, picks a free one'
complete -c csafe -n "__csafe_at 'completion'" -x -a 'bash zsh fish'
