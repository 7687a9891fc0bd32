{{/* Chart name, truncated to a DNS label. */}}
{{- define "coderecall.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: the release name, plus the chart name unless the release name contains it. */}}
{{- define "coderecall.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "coderecall.headless" -}}
{{- printf "%s-headless" (include "coderecall.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "coderecall.selectorLabels" -}}
app.kubernetes.io/name: {{ include "coderecall.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "coderecall.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "coderecall.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "coderecall.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "coderecall.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret the pods read: the user's existingSecret or the chart's. */}}
{{- define "coderecall.secretName" -}}
{{- default (include "coderecall.fullname" .) .Values.existingSecret }}
{{- end }}

{{/* The Qdrant subchart's service name (its own "qdrant.fullname" rule). */}}
{{- define "coderecall.qdrantFullname" -}}
{{- if .Values.qdrant.fullnameOverride }}
{{- .Values.qdrant.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains "qdrant" .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-qdrant" .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* URL of the shared Qdrant server; empty: the embedded store. Fails on contradictions. */}}
{{- define "coderecall.qdrantUrl" -}}
{{- if and .Values.qdrant.enabled .Values.externalQdrant.url }}
{{- fail "set either qdrant.enabled or externalQdrant.url, not both" }}
{{- else if .Values.externalQdrant.url }}
{{- .Values.externalQdrant.url }}
{{- else if .Values.qdrant.enabled }}
{{- printf "http://%s:6333" (include "coderecall.qdrantFullname" .) }}
{{- end }}
{{- end }}

{{/* valueFrom of the Qdrant API key, as YAML; empty when there is none. */}}
{{- define "coderecall.qdrantApiKeyFrom" -}}
{{- if .Values.externalQdrant.url }}
{{- if .Values.externalQdrant.existingSecret }}
secretKeyRef:
  name: {{ .Values.externalQdrant.existingSecret }}
  key: {{ .Values.externalQdrant.existingSecretKey }}
{{- else if or .Values.externalQdrant.apiKey .Values.existingSecret }}
secretKeyRef:
  name: {{ include "coderecall.secretName" . }}
  key: qdrant-api-key
  optional: {{ not .Values.externalQdrant.apiKey }}
{{- end }}
{{- else if .Values.qdrant.enabled }}
{{- if and (kindIs "map" .Values.qdrant.apiKey) (dig "valueFrom" "secretKeyRef" "name" "" .Values.qdrant.apiKey) }}
secretKeyRef:
  name: {{ .Values.qdrant.apiKey.valueFrom.secretKeyRef.name }}
  key: {{ .Values.qdrant.apiKey.valueFrom.secretKeyRef.key }}
{{- else if .Values.qdrant.apiKey }}
secretKeyRef:
  name: {{ include "coderecall.qdrantFullname" . }}-apikey
  key: api-key
{{- end }}
{{- end }}
{{- end }}

{{/*
The daemon's config.toml: .Values.config with the chart's own keys laid over it, top-level
scalars first (TOML puts bare keys before tables), then one [table] per map, then [[repos]].
Values are written with toJson: a JSON string, number, boolean or array of them is valid TOML.
values.schema.json refuses repos[].token (a credential in a ConfigMap) and the managed keys.
*/}}
{{- define "coderecall.config" -}}
{{- $url := include "coderecall.qdrantUrl" . -}}
{{- $managed := dict
  "data_dir" "/var/lib/coderecall"
  "server" (dict "listen" (printf "0.0.0.0:%d" (int .Values.ports.grpc)))
  "auth" (dict "mode" .Values.auth.mode)
  "metrics" (dict "listen" (ternary (printf "0.0.0.0:%d" (int .Values.ports.metrics)) "" .Values.metrics.enabled))
  "webhook" (dict "listen" (ternary (printf "0.0.0.0:%d" (int .Values.ports.webhook)) "" .Values.webhook.enabled)) -}}
{{- if eq .Values.auth.mode "token" }}
{{- $_ := set $managed.auth "tokens_file" "/run/secrets/coderecall/tokens.toml" }}
{{- end }}
{{- if $url }}
{{- $_ := set $managed "store" (dict "backend" "server" "url" $url) }}
{{- end }}
{{- $cfg := mustMergeOverwrite (deepCopy (.Values.config | default dict)) $managed -}}
{{- range $key, $value := $cfg }}
{{- if not (kindIs "map" $value) }}
{{ $key }} = {{ $value | toJson }}
{{- end }}
{{- end }}
{{- range $section, $table := $cfg }}
{{- if kindIs "map" $table }}

[{{ $section }}]
{{- range $key, $value := $table }}
{{ $key }} = {{ $value | toJson }}
{{- end }}
{{- end }}
{{- end }}
{{- range .Values.repos }}

[[repos]]
{{- range $key, $value := . }}
{{ $key }} = {{ $value | toJson }}
{{- end }}
{{- end }}
{{- end }}
