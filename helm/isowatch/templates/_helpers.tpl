{{/*
Names. Kubernetes names are capped at 63 characters; the FlinkDeployment name becomes Flink's
kubernetes.cluster-id, which Flink caps at 45.
*/}}
{{- define "isowatch.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "isowatch.fullname" -}}
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

{{- define "isowatch.job.name" -}}
{{- printf "%s-checker" (include "isowatch.fullname" .) | trunc 45 | trimSuffix "-" }}
{{- end }}

{{- define "isowatch.agent.name" -}}
{{- printf "%s-agent" (include "isowatch.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "isowatch.ui.name" -}}
{{- printf "%s-ui" (include "isowatch.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "isowatch.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every resource. */}}
{{- define "isowatch.labels" -}}
helm.sh/chart: {{ include "isowatch.chart" . }}
{{ include "isowatch.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: isowatch
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "isowatch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "isowatch.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Selector labels of the agent pod and the Flink pods. */}}
{{- define "isowatch.agent.selectorLabels" -}}
{{ include "isowatch.selectorLabels" . }}
app.kubernetes.io/component: agent
{{- end }}

{{- define "isowatch.ui.selectorLabels" -}}
{{ include "isowatch.selectorLabels" . }}
app.kubernetes.io/component: ui
{{- end }}

{{- define "isowatch.job.selectorLabels" -}}
{{ include "isowatch.selectorLabels" . }}
app.kubernetes.io/component: checker
{{- end }}

{{/* repository:tag, the tag defaulting to the chart's appVersion. Call with (dict "image" X "root" $). */}}
{{- define "isowatch.image" -}}
{{- printf "%s:%s" .image.repository (default .root.Chart.AppVersion .image.tag) }}
{{- end }}

{{- define "isowatch.agent.id" -}}
{{- default (include "isowatch.agent.name" .) .Values.agent.agentId }}
{{- end }}

{{- define "isowatch.agent.claimName" -}}
{{- default (printf "%s-spool" (include "isowatch.agent.name" .)) .Values.agent.spool.existingClaim }}
{{- end }}

{{- define "isowatch.job.stateClaimName" -}}
{{- default (printf "%s-state" (include "isowatch.job.name" .)) .Values.job.stateVolume.existingClaim }}
{{- end }}

{{- define "isowatch.imagePullSecrets" -}}
{{- range .Values.imagePullSecrets }}
- name: {{ if kindIs "string" . }}{{ . }}{{ else }}{{ .name }}{{ end }}
{{- end }}
{{- end }}

{{/*
Cross-field checks that values.schema.json cannot express; each names the values to change.
*/}}
{{- define "isowatch.validate" -}}
{{- $job := .Values.job }}
{{- if lt (int $job.maxParallelism) (int $job.parallelism) }}
{{- fail (printf "job.maxParallelism (%v) must be at least job.parallelism (%v); maxParallelism is fixed for the life of the state, so raise it before the first deployment" $job.maxParallelism $job.parallelism) }}
{{- end }}
{{- if and .Values.agent.enabled $job.enabled (ne .Values.agent.workload $job.options.workload) }}
{{- fail (printf "agent.workload (%s) and job.options.workload (%s) must be the same workload" .Values.agent.workload $job.options.workload) }}
{{- end }}
{{- $managed := include "isowatch.job.chartFlinkConfiguration" . | fromYaml }}
{{- range $key, $_ := $job.flinkConfiguration }}
{{- if hasKey $managed $key }}
{{- fail (printf "job.flinkConfiguration.%s is set by the chart from other values (see docs/kubernetes.md); set those instead" $key) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The Flink configuration the chart derives from typed values (all values strings, as the
FlinkDeployment CRD requires). Flink 2.x option names; job.flinkConfiguration may add others.
*/}}
{{- define "isowatch.job.chartFlinkConfiguration" -}}
{{- $job := .Values.job }}
{{- $conf := dict
  "taskmanager.numberOfTaskSlots" (toString (int64 $job.taskManager.slots))
  "state.backend.type" $job.stateBackend
  "execution.checkpointing.interval" $job.checkpointing.interval
  "execution.checkpointing.dir" $job.checkpointing.dir
  "execution.checkpointing.savepoint-dir" $job.checkpointing.savepointDir
  "metrics.reporter.prom.factory.class" "org.apache.flink.metrics.prometheus.PrometheusReporterFactory"
  "metrics.reporter.prom.port" (toString (int64 $job.metrics.port))
  "metrics.reporter.prom.filterLabelValueCharacters" "false"
}}
{{- if eq $job.stateBackend "rocksdb" }}
{{- $_ := set $conf "execution.checkpointing.incremental" "true" }}
{{- end }}
{{- if $job.highAvailability.enabled }}
{{- $_ := set $conf "high-availability.type" "kubernetes" }}
{{- $_ := set $conf "high-availability.storageDir" $job.highAvailability.storageDir }}
{{- end }}
{{- if $job.periodicSavepointInterval }}
{{- $_ := set $conf "kubernetes.operator.periodic.savepoint.interval" $job.periodicSavepointInterval }}
{{- end }}
{{- toYaml $conf }}
{{- end }}

{{/* The job's command line: --<option> <value> pairs (io.isowatch.job.JobOptions). */}}
{{- define "isowatch.job.args" -}}
{{- $job := .Values.job }}
{{- $o := $job.options -}}
- --bootstrap-servers
- {{ .Values.kafka.bootstrapServers | quote }}
- --history-topic
- {{ .Values.kafka.topics.history | quote }}
- --alerts-topic
- {{ .Values.kafka.topics.alerts | quote }}
- --dead-letter-topic
- {{ .Values.kafka.topics.deadLetters | quote }}
- --group-id
- {{ $o.groupId | quote }}
- --starting-offsets
- {{ $o.startingOffsets | quote }}
- --max-out-of-orderness
- {{ $o.maxOutOfOrderness | quote }}
- --idle-timeout
- {{ $o.idleTimeout | quote }}
- --clock-uncertainty
- {{ $o.clockUncertainty | quote }}
- --dedupe-retention
- {{ $o.dedupeRetention | quote }}
- --rocksdb-compression
- {{ $o.rocksdbCompression | quote }}
- --parallelism
- {{ $job.parallelism | int64 | quote }}
- --max-parallelism
- {{ $job.maxParallelism | int64 | quote }}
- --checkpoint-interval
- {{ $job.checkpointing.interval | quote }}
- --state-backend
- {{ $job.stateBackend | quote }}
- --consistency-models
- {{ join "," $o.consistencyModels | quote }}
- --workload
- {{ $o.workload | quote }}
{{- with $o.alertsWebhook }}
- --alerts-webhook
- {{ . | quote }}
{{- end }}
{{- with .Values.ui.baseUrl }}
- --ui-base-url
- {{ . | quote }}
{{- end }}
{{- end }}

{{/* The console's command line after "isowatch ui": the alerts topic, all interfaces of the pod. */}}
{{- define "isowatch.ui.args" -}}
{{- $u := .Values.ui -}}
- --bootstrap-servers
- {{ .Values.kafka.bootstrapServers | quote }}
- --alerts-topic
- {{ .Values.kafka.topics.alerts | quote }}
- --ui-bind
- "0.0.0.0"
- --ui-port
- {{ $u.port | int64 | quote }}
- --max-findings
- {{ $u.maxFindings | int64 | quote }}
{{- end }}

{{/* The agent's command line after "isowatch agent run" (the image's entrypoint). */}}
{{- define "isowatch.agent.args" -}}
{{- $a := .Values.agent -}}
- --target
- {{ $a.target | quote }}
{{- if hasPrefix "jdbc:" $a.target }}
- --isolation
- {{ $a.database.isolation | quote }}
{{- with $a.database.user }}
- --user
- {{ . | quote }}
{{- end }}
{{- end }}
- --workload
- {{ $a.workload | quote }}
- --record-format
- {{ $a.recordFormat | quote }}
- --rate
- {{ include "isowatch.number" $a.rate | quote }}
- --concurrency
- {{ $a.concurrency | int64 | quote }}
- --keys
- {{ $a.keys | int64 | quote }}
- --duration
- {{ $a.duration | quote }}
- --spool-dir
- {{ $a.spool.mountPath | quote }}
- --bootstrap-servers
- {{ .Values.kafka.bootstrapServers | quote }}
- --topic
- {{ .Values.kafka.topics.history | quote }}
- --metrics-port
- {{ $a.metricsPort | int64 | quote }}
- --bind-address
- "0.0.0.0"
{{- if $a.history }}
- --history
- {{ $a.history | quote }}
- --member
- "$(ISOWATCH_MEMBER)"
- --agent-id
- "$(POD_NAME)"
{{- else }}
- --agent-id
- {{ include "isowatch.agent.id" . | quote }}
{{- end }}
{{- range $a.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}

{{/* A number without exponent notation: whole numbers as integers, others as written. */}}
{{- define "isowatch.number" -}}
{{- if eq (float64 .) (float64 (int64 .)) }}{{ int64 . }}{{ else }}{{ . }}{{ end }}
{{- end }}

{{/*
The agent pod's spec, shared by the single agent's Deployment and a history's StatefulSet
(agent.history set), which names each pod's spool claim in its volumeClaimTemplates instead.
*/}}
{{- define "isowatch.agent.podSpec" -}}
{{- $a := .Values.agent -}}
{{- $jdbc := hasPrefix "jdbc:" $a.target -}}
{{- $fleet := $a.history -}}
# The agent never talks to the Kubernetes API.
automountServiceAccountToken: false
{{- with (include "isowatch.imagePullSecrets" .) }}
imagePullSecrets:
  {{- . | trim | nindent 2 }}
{{- end }}
securityContext:
  # The isowatch user of docker/agent/Dockerfile; fsGroup makes the spool volume writable.
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  fsGroup: 10001
containers:
  - name: agent
    image: {{ include "isowatch.image" (dict "image" $a.image "root" $) | quote }}
    imagePullPolicy: {{ $a.image.pullPolicy }}
    args:
      {{- include "isowatch.agent.args" . | nindent 6 }}
    {{- if or $jdbc $a.jvmOptions $fleet }}
    env:
      {{- if $fleet }}
      # The agent's id is its pod's name and its member number the pod's ordinal, both stable across
      # restarts, so a restarted pod continues its own spool. The ordinal comes from the downward
      # API label Kubernetes 1.28 and later set on a StatefulSet's pods: the image's entrypoint is
      # java itself, with no shell to cut the ordinal from the hostname.
      - name: POD_NAME
        valueFrom:
          fieldRef:
            fieldPath: metadata.name
      - name: ISOWATCH_MEMBER
        valueFrom:
          fieldRef:
            fieldPath: metadata.labels['apps.kubernetes.io/pod-index']
      {{- end }}
      {{- if $jdbc }}
      - name: ISOWATCH_DB_PASSWORD
        valueFrom:
          secretKeyRef:
            name: {{ $a.database.passwordSecret.name }}
            key: {{ $a.database.passwordSecret.key }}
      {{- end }}
      {{- with $a.jvmOptions }}
      - name: JDK_JAVA_OPTIONS
        value: {{ . | quote }}
      {{- end }}
    {{- end }}
    ports:
      - name: metrics
        containerPort: {{ $a.metricsPort | int64 }}
        protocol: TCP
    readinessProbe:
      httpGet:
        path: /metrics
        port: metrics
      initialDelaySeconds: 5
      periodSeconds: 10
    livenessProbe:
      tcpSocket:
        port: metrics
      initialDelaySeconds: 30
      periodSeconds: 20
      failureThreshold: 6
    securityContext:
      allowPrivilegeEscalation: false
      capabilities:
        drop:
          - ALL
    volumeMounts:
      - name: spool
        mountPath: {{ $a.spool.mountPath }}
    {{- with $a.resources }}
    resources:
      {{- toYaml . | nindent 6 }}
    {{- end }}
{{- if not $fleet }}
volumes:
  - name: spool
    persistentVolumeClaim:
      claimName: {{ include "isowatch.agent.claimName" . }}
{{- end }}
{{- with $a.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $a.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $a.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
