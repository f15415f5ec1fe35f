// helpers
import { get } from "lodash";
get({}, "a");
