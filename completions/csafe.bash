# bash completion for csafe. Install: source this file, or copy it to
# /etc/bash_completion.d/csafe (or ~/.local/share/bash-completion/completions/csafe).
_csafe() {
  local cur prev words cword
  _init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }

  local global="--profile --api-key --base-url --timeout --max-retries --max-wait -o --output --json -v --verbose -q --quiet --no-color --insecure --emulator -h --help -V --version"
  local commands="classify token auth config settings data events emulator"

  case "$prev" in
    -o|--output) COMPREPLY=($(compgen -W "table json ndjson" -- "$cur")); return ;;
    --api-version|--account-version) COMPREPLY=($(compgen -W "2026-08-11 2026-08-05" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "match review" -- "$cur")); return ;;
    --batch|--failed|--metadata|--checkpoint|--skip-invalid) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac

  local cmd="" sub="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -*) ;;
      *) if [[ -z $cmd ]]; then cmd=${words[i]}; elif [[ -z $sub ]]; then sub=${words[i]}; fi ;;
    esac
  done

  case "$cmd" in
    "") COMPREPLY=($(compgen -W "$commands $global" -- "$cur")) ;;
    classify)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--text --user-id --content-id --metadata --api-version --fail-on --batch --concurrency --failed $global" -- "$cur"))
      else
        COMPREPLY=($(compgen -f -- "$cur"))
      fi ;;
    token) [[ -z $sub ]] && COMPREPLY=($(compgen -W "create" -- "$cur")) || COMPREPLY=($(compgen -W "--expires-in --user-id --session-id $global" -- "$cur")) ;;
    auth) [[ -z $sub ]] && COMPREPLY=($(compgen -W "login status logout" -- "$cur")) || COMPREPLY=($(compgen -W "--with-token $global" -- "$cur")) ;;
    config)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "get set unset list" -- "$cur"))
      else COMPREPLY=($(compgen -W "base_url user_id output timeout max_retries $global" -- "$cur")); fi ;;
    settings)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "put" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--field $global" -- "$cur"))
      else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
    data)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "add status" -- "$cur"))
      elif [[ $sub == status ]]; then COMPREPLY=($(compgen -W "--wait --timeout $global" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--batch-size --max-batch-bytes --concurrency --checkpoint --failed --skip-invalid --wait --timeout $global" -- "$cur"))
      else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
    events)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "send example" -- "$cur"))
      elif [[ $sub == example ]]; then COMPREPLY=($(compgen -W "user_contact content_uploaded product_changed create_account update_account user_report moderation_decision" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--dry-run --sync --checkpoint --failed --skip-invalid --allow-unknown-types --no-auto-idempotency --batch-size --max-batch-bytes --concurrency --shard $global" -- "$cur"))
      else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
    data)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "import" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--wait --timeout --no-validate $global" -- "$cur"))
      else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
    emulator) [[ -z $sub ]] && COMPREPLY=($(compgen -W "start" -- "$cur")) || COMPREPLY=($(compgen -W "--host --port --latency --account-version --fault-rate --faults --seed --fault-delay --processing-delay --upload-ttl --data-dir --request-log-size $global" -- "$cur")) ;;
  esac
}
complete -o default -F _csafe csafe
