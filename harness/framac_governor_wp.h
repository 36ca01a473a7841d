/*
 * WP's contract for the menu governor (validate/framac.h): ACSL on a
 * declaration, read before the code extracted from the file under test, so
 * that the contract is the project's and the kernel text stays as it is.
 *
 * GOV-7 past the selection: menu_reflect() records the index the cpuidle
 * core entered, unchanged, as the state the next menu_update() learns from
 * (it indexes drv->states[] with it): whatever the tick layer answers.
 */
/*@ requires \valid(dev);
    ensures GOV_7: dev->last_state_idx == index;
*/
static void menu_reflect(struct cpuidle_device *dev, int index);
