/** Controller plugins (--controller-plugin): the contract a module implements and the loop the server runs it as. */
export { buildPluginControllers } from "./controller.ts";
export {
  type ControllerClient,
  type ControllerPlugin,
  type ControllerPluginContext,
  type ControllerPluginFactory,
  defineControllerPlugin,
  type ReconcileRequest,
} from "./types.ts";
