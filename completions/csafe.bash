# bash completion for csafe, generated from its command tree by `npm run gen`; `csafe completion bash` prints it.
# Install: source <(csafe completion bash) in ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/csafe

_csafe_lines() {
  COMPREPLY=()
  local line
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}

_csafe() {
  # The word as readline will replace it ($2): after `--output=` it is empty, where COMP_WORDS has `=`.
  local cur=${2-${COMP_WORDS[COMP_CWORD]}} prev=${COMP_WORDS[COMP_CWORD-1]} at="" words="" i last=0 end=""
  [[ $cur == = ]] && cur=""
  if [[ ${COMP_WORDS[COMP_CWORD]} == = ]]; then prev=${COMP_WORDS[COMP_CWORD-1]}; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      --) end=$i; break ;;
      --account-version|--action|--agent-type|--api-key|--api-key-file|--api-version|--audio|--base-url|--batch|--batch-size|--captions|--chat|--checkpoint|--comment|--concurrency|--content|--content-id|--content-type|--data|--data-dir|--decision|--download|--events|--expires-in|--external-request-id|--fail-on|--failed|--fault-delay|--fault-rate|--faults|--field|--flush-interval|--forward-secret|--forward-to|--frame|--from-line|--headers|--host|--id|--latency|--max-batch-bytes|--max-buffer|--max-consecutive-failures|--max-rate|--max-retries|--max-wait|--metadata|--namespace|--output|--policy-id|--port|--processing-delay|--profile|--reference-id|--request-log-size|--request-timeout|--requested-at|--schema|--secret|--seed|--sender-id|--sender-name|--session-id|--shard|--signature|--skip-invalid|--speaker|--start|--subject-user-id|--text|--timeout|--timestamp|--tolerance|--transcript|--type|--unconfirmed|--upload-ttl|--url|--user-id|--webhook-fault-delay|--webhook-fault-rate|--webhook-faults|--webhook-retry-delays|--webhook-secret|--webhook-timeout|--webhook-url|-o) [[ ${COMP_WORDS[i+1]} == = ]] && ((i++)); ((i++)) ;;
      -*) ;;
      *) case "$at" in ''|'token'|'auth'|'config'|'settings'|'data'|'import'|'events'|'stream'|'decision'|'batch'|'agent-decision'|'deletion-request'|'webhooks'|'emulator') at="${at:+$at }${COMP_WORDS[i]}"; last=$i ;; esac ;;
    esac
  done
  [[ -z $end ]] && case "$at:$prev" in
    'classify:'--api-version) COMPREPLY=($(compgen -W '2026-08-11 2026-08-05' -- "$cur")); return ;;
    'classify:'--fail-on) COMPREPLY=($(compgen -W 'match review' -- "$cur")); return ;;
    'classify:'--batch) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'classify:'--failed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'classify:'--skip-invalid) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'classify:'--checkpoint) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'data add:'--checkpoint) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'data add:'--failed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'data add:'--skip-invalid) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'data add:'--schema) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'data import:'--schema) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'events send:'--checkpoint) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'events send:'--failed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'events send:'--unconfirmed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'events send:'--skip-invalid) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'stream parts:'--captions) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'stream parts:'--failed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'stream parts:'--unconfirmed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'stream parts:'--skip-invalid) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'stream parts:'--checkpoint) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'batch create:'--download) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'batch get:'--download) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'agent-decision send:'--failed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'agent-decision send:'--unconfirmed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'agent-decision send:'--skip-invalid) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'agent-decision send:'--checkpoint) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'deletion-request send:'--failed) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'deletion-request send:'--skip-invalid) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'deletion-request send:'--checkpoint) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'webhooks verify:'--headers) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    'emulator start:'--account-version) COMPREPLY=($(compgen -W '2026-08-11 2026-08-05' -- "$cur")); return ;;
    'emulator start:'--data-dir) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -d -- "$cur"); return ;;
    'emulator exec:'--account-version) COMPREPLY=($(compgen -W '2026-08-11 2026-08-05' -- "$cur")); return ;;
    'emulator exec:'--data-dir) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -d -- "$cur"); return ;;
    *:--profile) compopt -o filenames 2>/dev/null; _csafe_lines < <(csafe __complete profiles 2>/dev/null | while IFS= read -r i; do [[ $i == "$cur"* ]] && printf '%s\n' "$i"; done); return ;;
    *:--api-key-file) compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return ;;
    *:--output|*:-o) COMPREPLY=($(compgen -W 'table json ndjson tsv' -- "$cur")); return ;;
    *:--account-version|*:--action|*:--agent-type|*:--api-key|*:--api-key-file|*:--api-version|*:--audio|*:--base-url|*:--batch|*:--batch-size|*:--captions|*:--chat|*:--checkpoint|*:--comment|*:--concurrency|*:--content|*:--content-id|*:--content-type|*:--data|*:--data-dir|*:--decision|*:--download|*:--events|*:--expires-in|*:--external-request-id|*:--fail-on|*:--failed|*:--fault-delay|*:--fault-rate|*:--faults|*:--field|*:--flush-interval|*:--forward-secret|*:--forward-to|*:--frame|*:--from-line|*:--headers|*:--host|*:--id|*:--latency|*:--max-batch-bytes|*:--max-buffer|*:--max-consecutive-failures|*:--max-rate|*:--max-retries|*:--max-wait|*:--metadata|*:--namespace|*:--output|*:--policy-id|*:--port|*:--processing-delay|*:--profile|*:--reference-id|*:--request-log-size|*:--request-timeout|*:--requested-at|*:--schema|*:--secret|*:--seed|*:--sender-id|*:--sender-name|*:--session-id|*:--shard|*:--signature|*:--skip-invalid|*:--speaker|*:--start|*:--subject-user-id|*:--text|*:--timeout|*:--timestamp|*:--tolerance|*:--transcript|*:--type|*:--unconfirmed|*:--upload-ttl|*:--url|*:--user-id|*:--webhook-fault-delay|*:--webhook-fault-rate|*:--webhook-faults|*:--webhook-retry-delays|*:--webhook-secret|*:--webhook-timeout|*:--webhook-url|*:-o) COMPREPLY=(); return ;;
  esac
  case "$at" in
    '') words='classify token auth config settings data import events stream decision batch agent-decision deletion-request webhooks emulator completion version --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' ;;
    'classify') [[ -z $end && $cur == -* ]] && words='--dry-run --text --user-id --content-id --metadata --api-version --each --fail-on --batch --concurrency --failed --skip-invalid --max-consecutive-failures --max-rate --checkpoint --from-line --shard --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'token') words='create' ;;
    'token create') [[ -z $end && $cur == -* ]] && words='--dry-run --expires-in --user-id --session-id --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'auth') words='login status logout' ;;
    'auth login') [[ -z $end && $cur == -* ]] && words='--with-token --no-verify --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'auth status') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'auth logout') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'config') words='get set unset list' ;;
    'config get') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'config set') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'config unset') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'config list') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'settings') words='put' ;;
    'settings put') [[ -z $end && $cur == -* ]] && words='--dry-run --field --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'data') words='add import status download' ;;
    'data add') [[ -z $end && $cur == -* ]] && words='--dry-run --batch-size --flush-interval --max-batch-bytes --concurrency --shard --checkpoint --failed --skip-invalid --max-consecutive-failures --max-rate --schema --wait --timeout --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'data import') [[ -z $end && $cur == -* ]] && words='--dry-run --wait --timeout --no-validate --schema --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'data status') [[ -z $end && $cur == -* ]] && words='--wait --timeout --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'data download') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'import') words='create get' ;;
    'import create') [[ -z $end && $cur == -* ]] && words='--dry-run --wait --timeout --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'import get') [[ -z $end && $cur == -* ]] && words='--wait --timeout --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'events') words='send example' ;;
    'events send') [[ -z $end && $cur == -* ]] && words='--dry-run --sync --checkpoint --failed --unconfirmed --skip-invalid --allow-unknown-types --no-auto-idempotency --batch-size --flush-interval --max-batch-bytes --concurrency --max-consecutive-failures --max-rate --shard --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'events example') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=($(compgen -W 'user_contact content_uploaded product_changed create_account update_account user_report moderation_decision' -- "$cur")); return; } ;;
    'stream') words='watch parts' ;;
    'stream watch') [[ -z $end && $cur == -* ]] && words='--dry-run --id --url --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'stream parts') [[ -z $end && $cur == -* ]] && words='--dry-run --id --chat --sender-id --sender-name --transcript --speaker --frame --audio --timestamp --captions --start --batch-size --max-batch-bytes --failed --unconfirmed --skip-invalid --checkpoint --max-consecutive-failures --max-rate --follow --flush-interval --max-buffer --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'decision') words='create get' ;;
    'decision create') [[ -z $end && $cur == -* ]] && words='--dry-run --type --content --metadata --wait --timeout --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'decision get') [[ -z $end && $cur == -* ]] && words='--wait --timeout --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'batch') words='create get download' ;;
    'batch create') [[ -z $end && $cur == -* ]] && words='--dry-run --type --wait --timeout --download --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'batch get') [[ -z $end && $cur == -* ]] && words='--wait --timeout --download --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'batch download') [[ -z $end && $cur == -* ]] && words='--escape-formulas --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'agent-decision') words='create send' ;;
    'agent-decision create') [[ -z $end && $cur == -* ]] && words='--dry-run --content-type --decision --policy-id --reference-id --action --agent-type --comment --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'agent-decision send') [[ -z $end && $cur == -* ]] && words='--concurrency --failed --unconfirmed --dry-run --skip-invalid --max-consecutive-failures --max-rate --checkpoint --from-line --shard --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'deletion-request') words='create send' ;;
    'deletion-request create') [[ -z $end && $cur == -* ]] && words='--dry-run --subject-user-id --external-request-id --requested-at --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'deletion-request send') [[ -z $end && $cur == -* ]] && words='--dry-run --concurrency --failed --skip-invalid --max-consecutive-failures --max-rate --checkpoint --from-line --shard --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'webhooks') words='verify listen trigger' ;;
    'webhooks verify') [[ -z $end && $cur == -* ]] && words='--secret --id --timestamp --signature --headers --tolerance --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); return; } ;;
    'webhooks listen') [[ -z $end && $cur == -* ]] && words='--forward-to --events --forward-secret --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'webhooks trigger') [[ -z $end && $cur == -* ]] && words='--dry-run --namespace --id --data --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=($(compgen -W 'workflow.succeeded workflow.failed decision.completed batch.completed' -- "$cur")); return; } ;;
    'emulator') words='start exec status reset' ;;
    'emulator start') [[ -z $end && $cur == -* ]] && words='--host --port --latency --account-version --fault-rate --faults --seed --fault-delay --processing-delay --upload-ttl --data-dir --request-log-size --webhook-url --webhook-secret --print-secret --webhook-retry-delays --webhook-timeout --webhook-fault-rate --webhook-faults --webhook-fault-delay --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'emulator exec') [[ -z $end && $cur == -* ]] && words='--host --latency --account-version --fault-rate --faults --seed --fault-delay --processing-delay --upload-ttl --data-dir --request-log-size --webhook-url --webhook-secret --webhook-retry-delays --webhook-timeout --webhook-fault-rate --webhook-faults --webhook-fault-delay --port --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { [[ -z $end ]] && COMPREPLY=($(compgen -W -- -- "$cur")) || { ((COMP_CWORD == end + 1)) && _csafe_lines < <(compgen -c -- "$cur") || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); }; }; return; } ;;
    'emulator status') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'emulator reset') [[ -z $end && $cur == -* ]] && words='--dry-run --profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    'completion') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur")); return; } ;;
    'version') [[ -z $end && $cur == -* ]] && words='--profile --api-key --api-key-file --base-url --request-timeout --max-retries --max-wait --output -o --json --wide --verbose -v --quiet -q --progress --no-color --insecure --emulator --help -h --version -V' || { COMPREPLY=(); return; } ;;
    *) return ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _csafe csafe
