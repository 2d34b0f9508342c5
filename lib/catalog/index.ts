// Catalog concepts shared by the till, the back office and the payment core: categories and product options.
// What other folders use of lib/catalog: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export {
  checkChoice,
  readOptionGroups,
  type ChosenOption,
  OptionGroupError,
  OptionGroupsInput,
  optionGroupsView,
  storedOptionGroups,
  type OptionGroupView,
} from './options';
export { CategoriesSetting, storedCategories, orderCategories, editableCategories } from './categories';
