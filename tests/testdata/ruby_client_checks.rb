# Checks run with Debian's ruby-kubeclient (kubeclient 4.9) against a kubun server, the way Ruby users drive it.
#
# Usage: ruby ruby_client_checks.rb KUBECONFIG NAMESPACE CHECK
# Prints one JSON document with what the check observed; tests/client-ruby.test.ts asserts on it.
# kubeclient sends its requests with rest-client (Net::HTTP) and its watches with the http gem.
require 'json'
require 'kubeclient'

KUBECONFIG, NAMESPACE, CHECK = ARGV

CONTEXT = Kubeclient::Config.read(KUBECONFIG).context

# A client for `path` ('' for the core API, '/apis/<group>' for a group) with the kubeconfig's credentials.
def client_for(path, version = 'v1')
  Kubeclient::Client.new(CONTEXT.api_endpoint + path, version, ssl_options: CONTEXT.ssl_options, auth_options: CONTEXT.auth_options)
end

# The kubeconfig's CA only: a client that authenticates with `auth_options` and no client certificate.
def client_without_certificate(auth_options)
  ssl_options = { cert_store: CONTEXT.ssl_options[:cert_store], verify_ssl: OpenSSL::SSL::VERIFY_PEER }
  Kubeclient::Client.new(CONTEXT.api_endpoint, 'v1', ssl_options: ssl_options, auth_options: auth_options)
end

def config_map(name, data = { 'key' => 'value' }, labels = {})
  { metadata: { name: name, namespace: NAMESPACE, labels: labels }, data: data }
end

# What the call raised: the class, the HTTP code and kubeclient's message (the Status message when there is one).
def error_of
  yield
  nil
rescue Kubeclient::HttpError => e
  { 'class' => e.class.name, 'code' => e.error_code, 'message' => e.message }
end

def poll(attempts = 200)
  attempts.times do
    value = yield
    return value if value

    sleep 0.05
  end
  raise 'state never reached'
end

def names(list)
  list.map { |item| item.metadata.name }
end

def check_discovery
  core = client_for('')
  apps = client_for('/apis/apps')
  core.discover
  {
    'coreValid' => core.api_valid?,
    'groupsValid' => %w[apps batch rbac.authorization.k8s.io networking.k8s.io].to_h { |group| [group, client_for("/apis/#{group}").api_valid?] },
    'unservedVersionValid' => client_for('/apis/apps', 'v1beta1').api_valid?,
    'coreVersions' => core.api['versions'],
    'appsPreferred' => apps.api['preferredVersion']['groupVersion'],
    'coreMethods' => %i[get_pods get_pod watch_pods get_config_maps get_endpoints get_endpoint get_component_statuses
                        create_service update_secret patch_node apply_namespace delete_service_account]
      .select { |method| core.respond_to?(method) },
    'appsMethods' => %i[get_deployments get_replica_sets get_stateful_sets get_daemon_sets get_controller_revisions]
      .select { |method| apps.respond_to?(method) }
  }
end

# Run with a kubeconfig whose user has a token: Kubeclient::Config hands it over as the bearer token.
def check_bearer_token
  token_file = File.join(File.dirname(KUBECONFIG), 'ruby-token')
  File.write(token_file, CONTEXT.auth_options[:bearer_token])
  unauthorized = client_without_certificate(bearer_token: 'not-a-token')
  {
    'certificate' => CONTEXT.ssl_options.key?(:client_cert),
    'token' => client_for('').get_namespace(NAMESPACE).metadata.name,
    'tokenFile' => client_without_certificate(bearer_token_file: token_file).get_config_maps(namespace: NAMESPACE).kind,
    'badToken' => error_of { unauthorized.get_entity('namespaces', NAMESPACE) },
    'badTokenDiscovery' => error_of { unauthorized.discover },
    'badTokenWatch' => error_of { unauthorized.watch_entities('configmaps', namespace: NAMESPACE) { break } }
  }
end

def check_crud
  core = client_for('')
  created = core.create_config_map(Kubeclient::Resource.new(config_map('crud')))
  created.data.key = 'updated'
  updated = core.update_config_map(created)
  stale = error_of { core.update_config_map(created) }
  {
    'created' => [created.kind, created.apiVersion, created.metadata.managedFields.map(&:manager)],
    'updated' => updated.data.key,
    'stale' => stale,
    'strategic' => core.patch_config_map('crud', { data: { extra: 'smp' } }, NAMESPACE).data.to_h,
    'merge' => core.merge_patch_config_map('crud', { data: { extra: nil } }, NAMESPACE).data.to_h,
    'json' => core.json_patch_config_map('crud', [{ op: 'replace', path: '/data/key', value: 'json' }], NAMESPACE).data.key,
    'failedTest' => error_of { core.json_patch_config_map('crud', [{ op: 'test', path: '/data/key', value: 'no' }], NAMESPACE) },
    'raw' => JSON.parse(core.get_config_map('crud', NAMESPACE, as: :raw))['data'],
    'parsed' => core.get_config_map('crud', NAMESPACE, as: :parsed)['metadata']['name'],
    'symbolized' => core.get_config_map('crud', NAMESPACE, as: :parsed_symbolized)[:data],
    'listParsed' => core.get_config_maps(namespace: NAMESPACE, as: :parsed_symbolized)[:kind],
    'alreadyExists' => error_of { core.create_config_map(config_map('crud')) },
    'invalid' => error_of { core.create_config_map(config_map('Not_Valid')) },
    'missing' => error_of { core.get_config_map('missing', NAMESPACE) },
    'missingNamespace' => error_of { core.create_config_map(config_map('x').merge(metadata: { name: 'x', namespace: 'nowhere' })) },
    'notFoundText' => begin
      core.get_config_map('missing', NAMESPACE)
    rescue Kubeclient::ResourceNotFoundError => e
      e.to_s
    end
  }
end

def check_server_side_apply
  core = client_for('')
  applied = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: NAMESPACE }, data: { key: 'first' } }
  first = core.apply_config_map(applied, field_manager: 'ruby-first')
  second = applied.merge(data: { key: 'second' })
  {
    'first' => [first.data.key, first.metadata.managedFields.map { |entry| [entry.manager, entry.operation] }],
    'conflict' => error_of { core.apply_config_map(second, field_manager: 'ruby-second', force: false) },
    'forced' => core.apply_config_map(second, field_manager: 'ruby-second').metadata.managedFields.map(&:manager),
    # kubeclient sends apply_* its argument's to_json: a Kubeclient::Resource (RecursiveOpenStruct) has none of its
    # own, so the body is a JSON string, which kube-apiserver refuses too.
    'resourceArgument' => error_of { core.apply_config_map(Kubeclient::Resource.new(applied), field_manager: 'ruby-first') }
  }
end

def check_delete_options
  core = client_for('')
  apps = client_for('/apis/apps')
  core.create_config_map(config_map('background'))
  background = core.delete_config_map('background', NAMESPACE, delete_options: { propagationPolicy: 'Background' })
  owner = core.create_config_map(config_map('owner'))
  core.create_config_map(config_map('dependent').merge(metadata: {
    name: 'dependent', namespace: NAMESPACE,
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }]
  }))
  core.delete_config_map('owner', NAMESPACE, delete_options: Kubeclient::Resource.new(kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan'))
  orphan = poll { (dependent = core.get_config_map('dependent', NAMESPACE)).metadata.ownerReferences.nil? && dependent }
  apps.create_deployment(metadata: { name: 'web', namespace: NAMESPACE }, spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } }
  })
  foreground = apps.delete_deployment('web', NAMESPACE, delete_options: { propagationPolicy: 'Foreground' })
  {
    'background' => [background.kind, background.status, background.details.to_h.slice(:name, :kind)],
    'orphaned' => [orphan.metadata.name, orphan.metadata.ownerReferences],
    'foreground' => [foreground.kind, foreground.metadata.finalizers, !foreground.metadata.deletionTimestamp.nil?],
    'precondition' => error_of { core.delete_config_map('dependent', NAMESPACE, delete_options: { preconditions: { uid: 'other' } }) },
    'badPolicy' => error_of { core.delete_config_map('dependent', NAMESPACE, delete_options: { propagationPolicy: 'Sideways' }) },
    'dryRun' => core.delete_config_map('dependent', NAMESPACE, delete_options: { dryRun: ['All'] }).status,
    'stillThere' => core.get_config_map('dependent', NAMESPACE).metadata.name,
    'missing' => error_of { core.delete_config_map('gone', NAMESPACE) }
  }
end

def check_selectors_and_paging
  core = client_for('')
  5.times { |i| core.create_config_map(config_map("page-#{i}", { 'key' => 'value' }, { tier: i.even? ? 'even' : 'odd' })) }
  pages = []
  page = core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier', limit: 2)
  pages << names(page)
  until page.last?
    page = core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier', limit: 2, continue: page.continue)
    pages << names(page)
  end
  whole = core.get_config_maps(namespace: NAMESPACE)
  {
    'pages' => pages,
    'labelled' => names(core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier=even')),
    'setBased' => names(core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier in (odd),tier!=even')),
    'fieldSelected' => names(core.get_config_maps(namespace: NAMESPACE, field_selector: 'metadata.name=page-3')),
    'list' => [whole.kind, whole.resourceVersion.to_i.positive?, whole.continue, whole.last?],
    'atVersion' => names(core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier=odd', resource_version: whole.resourceVersion)),
    'anyVersion' => core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier', resource_version: '0').size,
    'badLabels' => error_of { core.get_config_maps(namespace: NAMESPACE, label_selector: 'tier==a==b') },
    'badField' => error_of { core.get_config_maps(namespace: NAMESPACE, field_selector: 'data.key=value') },
    'badContinue' => error_of { core.get_config_maps(namespace: NAMESPACE, limit: 1, continue: 'not-a-token') }
  }
end

def check_group_apis
  apps = client_for('/apis/apps')
  batch = client_for('/apis/batch')
  rbac = client_for('/apis/rbac.authorization.k8s.io')
  networking = client_for('/apis/networking.k8s.io')
  template = { metadata: { labels: { app: 'group' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }
  apps.create_deployment(metadata: { name: 'group', namespace: NAMESPACE }, spec: { replicas: 1, selector: { matchLabels: { app: 'group' } }, template: template })
  patched = apps.patch_deployment('group', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } }, NAMESPACE)
  job_template = { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } }
  job = batch.create_job(metadata: { name: 'once', namespace: NAMESPACE }, spec: { template: job_template })
  batch.create_cron_job(metadata: { name: 'often', namespace: NAMESPACE }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: job_template } } })
  rbac.create_role(metadata: { name: 'reader', namespace: NAMESPACE }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: %w[get list] }])
  rbac.create_role_binding(metadata: { name: 'reader', namespace: NAMESPACE },
                           roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
                           subjects: [{ kind: 'User', name: 'ruby', apiGroup: 'rbac.authorization.k8s.io' }])
  poll { apps.get_replica_sets(namespace: NAMESPACE).any? }
  networking.create_network_policy(metadata: { name: 'deny', namespace: NAMESPACE }, spec: { podSelector: {}, policyTypes: ['Ingress'] })
  networking.create_ingress(metadata: { name: 'web', namespace: NAMESPACE }, spec: {
    rules: [{ host: 'web.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }]
  })
  {
    'deployment' => [patched.metadata.generation, patched.spec.template.spec.containers.map(&:image), names(apps.get_deployments(namespace: NAMESPACE))],
    'job' => [job.kind, job.spec.completions, job.spec.backoffLimit, names(batch.get_jobs(namespace: NAMESPACE, label_selector: 'job-name=once'))],
    'cronJob' => batch.get_cron_job('often', NAMESPACE).spec.to_h.slice(:schedule, :concurrencyPolicy, :suspend),
    'role' => rbac.get_roles(namespace: NAMESPACE).map { |role| role.rules.map(&:verbs) },
    'roleBinding' => rbac.get_role_binding('reader', NAMESPACE).roleRef.name,
    'networkPolicies' => names(networking.get_network_policies(namespace: NAMESPACE)),
    'ingress' => networking.get_ingress('web', NAMESPACE).spec.rules.map(&:host),
    # The deployment's controller may have rolled out one ReplicaSet or two by now.
    'appsEntities' => apps.all_entities(namespace: NAMESPACE).reject { |_, list| list.empty? }.keys.sort
  }
end

# The hash is the client's to change: create_entity adds kind and apiVersion to it.
def crontab_definition
  {
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer' } } }
      } } }
    }]
  }
  }
end

def check_custom_resources
  extensions = client_for('/apis/apiextensions.k8s.io')
  extensions.create_custom_resource_definition(crontab_definition)
  poll do
    conditions = extensions.get_custom_resource_definition('crontabs.stable.example.com').status.conditions || []
    conditions.any? { |condition| condition.type == 'Established' && condition.status == 'True' }
  end
  crontabs = client_for('/apis/stable.example.com')
  created = crontabs.create_cron_tab(metadata: { name: 'nightly', namespace: NAMESPACE }, spec: { cronSpec: '0 0 * * *', replicas: 1 })
  writer = Thread.new { crontabs.merge_patch_cron_tab('nightly', { spec: { replicas: 2 } }, NAMESPACE) }
  watched = crontabs.watch_cron_tabs(namespace: NAMESPACE, resource_version: created.metadata.resourceVersion) do |notice|
    break [notice.type, notice.object.spec.replicas]
  end
  writer.join
  crontabs.apply_cron_tab({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'applied', namespace: NAMESPACE }, spec: { replicas: 5 } },
                          field_manager: 'ruby')
  json_patched = crontabs.json_patch_cron_tab('nightly', [{ op: 'replace', path: '/spec/replicas', value: 3 }], NAMESPACE)
  nightly = crontabs.get_cron_tab('nightly', NAMESPACE)
  nightly.spec.cronSpec = '0 1 * * *'
  {
    'valid' => crontabs.api_valid?,
    'created' => [created.kind, created.apiVersion, created.spec.to_h],
    'list' => crontabs.get_cron_tabs(namespace: NAMESPACE).then { |list| [list.kind, names(list).sort] },
    'watched' => watched,
    'jsonPatch' => json_patched.spec.replicas,
    'updated' => crontabs.update_cron_tab(nightly).spec.cronSpec,
    'strategic' => error_of { crontabs.patch_cron_tab('nightly', { spec: { replicas: 4 } }, NAMESPACE) },
    'deleted' => crontabs.delete_cron_tab('applied', NAMESPACE).to_h.slice(:kind, :status),
    'entities' => crontabs.all_entities(namespace: NAMESPACE).transform_values(&:size)
  }
end

def check_watch
  core = client_for('')
  version = core.get_config_maps(namespace: NAMESPACE).resourceVersion
  stream = core.watch_config_maps(namespace: NAMESPACE, resource_version: version)
  writer = Thread.new do
    core.create_config_map(config_map('watched'))
    core.merge_patch_config_map('watched', { data: { key: 'changed' } }, NAMESPACE)
    core.delete_config_map('watched', NAMESPACE)
  end
  streamed = []
  stream.each do |notice|
    streamed << [notice.type, notice.object.metadata.name, notice.object.data&.key]
    stream.finish if streamed.size == 3
  end
  writer.join
  named = []
  core.watch_config_maps(namespace: NAMESPACE, name: 'watched', resource_version: version, as: :parsed) do |notice|
    named << notice['type']
    break if named.size == 3
  end
  raw = core.watch_config_maps(namespace: NAMESPACE, resource_version: version, as: :raw) { |line| break line }
  # watch_* used to take the resourceVersion itself; "0" starts with the namespaces as they are.
  legacy = core.watch_namespaces('0') { |notice| break notice.type }
  {
    'streamed' => streamed,
    'named' => named,
    'raw' => JSON.parse(raw).slice('type').merge('kind' => JSON.parse(raw)['object']['kind']),
    'legacyVersionArgument' => legacy,
    'fieldSelected' => core.watch_namespaces(field_selector: "metadata.name=#{NAMESPACE}") { |notice| break [notice.type, notice.object.metadata.name] },
    'badVersion' => error_of { core.watch_config_maps(namespace: NAMESPACE, resource_version: 'abc') { break } }
  }
end

# With a short history on the server, a watch from a compacted resourceVersion gets an ERROR notice carrying a 410
# Status; the client relists and watches again from the list's resourceVersion.
def check_watch_gone
  core = client_for('')
  old_version = core.create_config_map(config_map('old')).metadata.resourceVersion
  core.create_config_map(config_map('newer'))
  gone = poll(400) do
    notice = core.watch_config_maps(namespace: NAMESPACE, resource_version: old_version) { |event| break event }
    notice if notice.type == 'ERROR'
  end
  relisted = core.get_config_maps(namespace: NAMESPACE)
  resumed = []
  writer = Thread.new { core.create_config_map(config_map('after-relist')) }
  core.watch_config_maps(namespace: NAMESPACE, resource_version: relisted.resourceVersion) do |notice|
    resumed << [notice.type, notice.object.metadata.name]
    break
  end
  writer.join
  { 'gone' => gone.object.to_h.slice(:kind, :code, :reason), 'resumed' => resumed }
end

def check_pod_log
  core = client_for('')
  core.create_pod(metadata: { name: 'talker', namespace: NAMESPACE, annotations: { 'kubun.io/simulated-log' => "one\ntwo\nthree\n" } },
                  spec: { containers: [{ name: 'app', image: 'app:1' }] })
  poll { core.get_pod('talker', NAMESPACE).status.phase == 'Running' }
  followed = []
  core.watch_pod_log('talker', NAMESPACE, container: 'app') do |line|
    followed << line
    break if followed.size == 3
  end
  {
    'log' => core.get_pod_log('talker', NAMESPACE).body,
    'tail' => core.get_pod_log('talker', NAMESPACE, container: 'app', tail_lines: 1).body,
    'limited' => core.get_pod_log('talker', NAMESPACE, limit_bytes: 5).body,
    'timestamped' => core.get_pod_log('talker', NAMESPACE, timestamps: true, since_time: Time.now - 3600).body.lines.map { |line| line.split(' ', 2)[1] },
    'followed' => followed,
    'previous' => error_of { core.get_pod_log('talker', NAMESPACE, previous: true) },
    'unknownContainer' => error_of { core.get_pod_log('talker', NAMESPACE, container: 'nope') },
    'missingPod' => error_of { core.get_pod_log('ghost', NAMESPACE) }
  }
end

def check_proxy_url
  core = client_for('')
  core.create_service(metadata: { name: 'web', namespace: NAMESPACE }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] })
  service_url = core.proxy_url('services', 'web', 80, NAMESPACE)
  endpoint = poll { core.get_endpoint('web', NAMESPACE) rescue nil }
  {
    'urls' => [service_url, core.proxy_url('pods', 'talker', 8080, NAMESPACE), core.proxy_url('nodes', 'sim-0', 10250)]
      .map { |url| URI(url).path },
    'endpointSubsets' => endpoint.subsets,
    'noEndpoints' => error_of { core.handle_exception { core.create_rest_client(URI(service_url).path).get(core.headers) } }
  }
end

def check_entities
  core = client_for('')
  core.create_config_map(config_map('entity'))
  {
    'list' => core.get_entities('ConfigMap', 'configmaps', namespace: NAMESPACE).then { |list| [list.kind, names(list).sort] },
    'entity' => core.get_entity('configmaps', 'entity', NAMESPACE, as: :parsed)['data'],
    'all' => core.all_entities(namespace: NAMESPACE).transform_values { |list| list.map { |item| item.metadata.name }.sort }
      .slice('config_map', 'service_account', 'binding')
  }
end

CHECKS = private_methods.grep(/^check_/).to_h { |method| [method.to_s.delete_prefix('check_'), method] }

puts JSON.generate(send(CHECKS.fetch(CHECK)))
