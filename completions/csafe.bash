# bash completion for csafe. Install: source this file, or copy it to
# /etc/bash_completion.d/csafe (or ~/.local/share/bash-completion/completions/csafe).
_csafe() {
  local cur prev words cword
  _init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }

  local global="--profile --api-key --base-url --request-timeout --max-retries --max-wait -o --output --json --wide -v --verbose -q --quiet --progress --no-color --insecure --emulator -h --help -V --version"
  local commands="classify token auth config settings data import events stream decision batch agent-decision deletion-request webhooks emulator version"

  case "$prev" in
    -o|--output) COMPREPLY=($(compgen -W "table json ndjson tsv" -- "$cur")); return ;;
    --api-version|--account-version) COMPREPLY=($(compgen -W "2026-08-11 2026-08-05" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "match review" -- "$cur")); return ;;
    --decision) COMPREPLY=($(compgen -W "match no_match" -- "$cur")); return ;;
    --agent-type) COMPREPLY=($(compgen -W "appeal bpo_review policy_expert" -- "$cur")); return ;;
    --batch|--failed|--unconfirmed|--metadata|--checkpoint|--skip-invalid|--captions|--download) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
  esac

  local cmd="" sub="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      --profile|--api-key|--base-url|--request-timeout|--max-retries|--max-wait|-o|--output) ((i++)) ;;
      -*) ;;
      *) if [[ -z $cmd ]]; then cmd=${words[i]}; elif [[ -z $sub ]]; then sub=${words[i]}; fi ;;
    esac
  done

  # Each group's verbs; then, per verb, its own flags and what its arguments are (files or fixed words).
  local verbs="" flags="" values="" files=""
  case "$cmd" in
    "") COMPREPLY=($(compgen -W "$commands $global" -- "$cur")); return ;;
    token) verbs="create" ;;
    auth) verbs="login status logout" ;;
    config) verbs="get set unset list" ;;
    settings) verbs="put" ;;
    data) verbs="add import status download" ;;
    import) verbs="create get" ;;
    events) verbs="send example" ;;
    stream) verbs="watch parts" ;;
    decision) verbs="create get" ;;
    batch) verbs="create get download" ;;
    agent-decision) verbs="create send" ;;
    deletion-request) verbs="create send" ;;
    webhooks) verbs="verify listen trigger" ;;
    emulator) verbs="start exec status reset" ;;
  esac
  if [[ -n $verbs && -z $sub ]]; then COMPREPLY=($(compgen -W "$verbs" -- "$cur")); return; fi

  case "$cmd $sub" in
    classify\ *) flags="--text --user-id --content-id --metadata --api-version --each --fail-on --batch --concurrency --failed --skip-invalid --shard --max-consecutive-failures --max-rate --checkpoint --from-line"; files=1 ;;
    "token create") flags="--expires-in --user-id --session-id" ;;
    "auth login") flags="--with-token --no-verify" ;;
    "config get"|"config set"|"config unset") values="base_url user_id output request_timeout max_retries" ;;
    "settings put") flags="--field"; files=1 ;;
    "data add") flags="--batch-size --max-batch-bytes --concurrency --shard --checkpoint --failed --skip-invalid --max-consecutive-failures --max-rate --wait --timeout --schema"; files=1 ;;
    "data import") flags="--wait --timeout --no-validate --schema"; files=1 ;;
    "data status") flags="--wait --timeout" ;;
    "import create") flags="--wait --timeout"; files=1 ;;
    "import get") flags="--wait --timeout" ;;
    "events send") flags="--dry-run --sync --checkpoint --failed --unconfirmed --skip-invalid --allow-unknown-types --no-auto-idempotency --batch-size --max-batch-bytes --concurrency --max-consecutive-failures --max-rate --shard"; files=1 ;;
    "events example") values="user_contact content_uploaded product_changed create_account update_account user_report moderation_decision" ;;
    "stream watch") flags="--id --url" ;;
    "stream parts") flags="--id --chat --sender-id --sender-name --transcript --speaker --frame --audio --timestamp --captions --start --batch-size --max-batch-bytes --failed --unconfirmed --skip-invalid --checkpoint --max-consecutive-failures --max-rate --follow --flush-interval --max-buffer"; files=1 ;;
    "decision create") flags="--type --content --metadata --wait --timeout" ;;
    "decision get") flags="--wait --timeout" ;;
    "batch create") flags="--type --wait --timeout --download"; files=1 ;;
    "batch get") flags="--wait --timeout --download" ;;
    "batch download") flags="--escape-formulas"; files=1 ;;
    "agent-decision create") flags="--content-type --decision --policy-id --reference-id --action --agent-type --comment" ;;
    "agent-decision send") flags="--concurrency --failed --unconfirmed --skip-invalid --max-consecutive-failures --max-rate --checkpoint --from-line --shard"; files=1 ;;
    "deletion-request create") flags="--subject-user-id --external-request-id --requested-at" ;;
    "deletion-request send") flags="--concurrency --failed --skip-invalid --max-consecutive-failures --max-rate --checkpoint --from-line --shard"; files=1 ;;
    "data download") flags=""; files=1 ;;
    "webhooks verify") flags="--secret --id --timestamp --signature --headers --tolerance"; files=1 ;;
    "webhooks listen") flags="--forward-to --events --forward-secret" ;;
    "webhooks trigger") flags="--namespace --id --data"; values="workflow.succeeded workflow.failed decision.completed batch.completed" ;;
    "emulator start") flags="--host --port --latency --account-version --fault-rate --faults --seed --fault-delay --processing-delay --upload-ttl --data-dir --request-log-size --webhook-url --webhook-secret --print-secret --webhook-retry-delays --webhook-timeout --webhook-fault-rate --webhook-faults --webhook-fault-delay --api-key --json" ;;
    "emulator exec") flags="--host --port --latency --account-version --fault-rate --faults --seed --fault-delay --processing-delay --upload-ttl --data-dir --request-log-size --webhook-url --webhook-secret --webhook-retry-delays --webhook-timeout --webhook-fault-rate --webhook-faults --webhook-fault-delay --api-key" ;;
  esac

  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$flags $global" -- "$cur"))
  elif [[ -n $values ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur"))
  elif [[ -n $files ]]; then COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _csafe csafe
